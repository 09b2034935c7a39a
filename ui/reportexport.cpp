#include "reportexport.h"

#include "core/report/htmlreport.h"

#include <QtConcurrent/QtConcurrentRun>

#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMarginsF>
#include <QMessageBox>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QPointer>
#include <QSaveFile>
#include <QTextDocument>

namespace tf::ui {

namespace {

struct Outcome
{
    bool ok = false;
    QString error;
};

Outcome writeReportOutcome(const recording::Run &run, const notes::Sidecar *sidecar, const QString &path)
{
    Outcome out;
    out.ok = writeReport(run, sidecar, path, &out.error);
    return out;
}

} // namespace

QString reportTitle(const recording::Run &run)
{
    const std::string id = run.runId.empty() ? notes::identityOf(run).path : run.runId;
    return QObject::tr("Tracefold report %1").arg(QString::fromStdString(id));
}

bool writeReportPdf(const QString &html, const QString &path, const QString &title, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    {
        QPdfWriter writer(&file);
        writer.setTitle(title);
        writer.setCreator(QStringLiteral("Tracefold " TRACEFOLD_VERSION));
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(14, 14, 14, 16), QPageLayout::Millimeter);
        writer.setResolution(300);

        QTextDocument document;
        // The report's fonts are named for browsers; the PDF falls back to the family every Debian desktop has.
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPointSizeF(8.5);
        document.setDefaultFont(font);
        document.setDocumentMargin(0);
        document.setHtml(html);
        document.print(&writer);
    }
    if (!file.commit()) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool writeReport(const recording::Run &run, const notes::Sidecar *sidecar, const QString &path, QString *error)
{
    report::HtmlReportOptions options;
    options.sidecar = sidecar;
    const bool pdf = path.endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive);
    options.flavor = pdf ? report::HtmlReportOptions::Flavor::QtPrint : report::HtmlReportOptions::Flavor::Browser;
    const std::string html = report::renderHtmlReport(run, options);
    if (pdf)
        return writeReportPdf(QString::fromUtf8(html.data(), qsizetype(html.size())), path, reportTitle(run), error);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(html.data(), qint64(html.size())) != qint64(html.size()) ||
        !file.commit()) {
        if (error)
            *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

struct ReportExporter::State
{
    QFutureWatcher<Outcome> watcher;
    QString path;
};

ReportExporter::ReportExporter(QObject *parent)
    : QObject(parent)
    , m_state(std::make_shared<State>())
{
    connect(&m_state->watcher, &QFutureWatcher<Outcome>::finished, this, [this] {
        const Outcome outcome = m_state->watcher.result();
        emit finished(outcome.ok, m_state->path, outcome.error);
    });
}

ReportExporter::~ReportExporter()
{
    // The worker owns copies of everything it reads; waiting keeps the watcher valid until it is done.
    m_state->watcher.waitForFinished();
}

bool ReportExporter::isRunning() const
{
    return m_state->watcher.isRunning();
}

void ReportExporter::start(std::shared_ptr<const recording::Run> run, std::optional<notes::Sidecar> sidecar,
                           const QString &path)
{
    m_state->path = path;
    m_state->watcher.setFuture(QtConcurrent::run([run = std::move(run), sidecar = std::move(sidecar), path] {
        return writeReportOutcome(*run, sidecar ? &*sidecar : nullptr, path);
    }));
}

void exportReport(QWidget *parent, std::shared_ptr<const recording::Run> run, const notes::Sidecar *sidecar,
                  ReportFormat format)
{
    if (!run)
        return;
    const QString htmlFilter = QObject::tr("HTML report (*.html)");
    const QString pdfFilter = QObject::tr("PDF report (*.pdf)");
    QString selected = format == ReportFormat::Pdf ? pdfFilter : htmlFilter;
    const QFileInfo recording(QString::fromStdString(run->path));
    const QString suggested =
        recording.dir().filePath(recording.completeBaseName() +
                                 (format == ReportFormat::Pdf ? QStringLiteral(".report.pdf") : QStringLiteral(".report.html")));
    QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export Report"), suggested,
                                                htmlFilter + QStringLiteral(";;") + pdfFilter, &selected);
    if (path.isEmpty())
        return;
    const bool wantPdf = selected == pdfFilter;
    const QString suffix = wantPdf ? QStringLiteral(".pdf") : QStringLiteral(".html");
    if (!path.endsWith(suffix, Qt::CaseInsensitive) &&
        !(wantPdf ? false : path.endsWith(QLatin1String(".htm"), Qt::CaseInsensitive)))
        path += suffix;

    auto *exporter = new ReportExporter(parent);
    QApplication::setOverrideCursor(Qt::BusyCursor);
    QPointer<QWidget> owner(parent);
    QObject::connect(exporter, &ReportExporter::finished, exporter,
                     [exporter, owner](bool ok, const QString &written, const QString &error) {
                         QApplication::restoreOverrideCursor();
                         if (!ok)
                             QMessageBox::warning(owner, QObject::tr("Export Report"), error);
                         exporter->deleteLater();
                         Q_UNUSED(written);
                     });
    exporter->start(std::move(run), sidecar ? std::optional<notes::Sidecar>(*sidecar) : std::nullopt, path);
}

} // namespace tf::ui
