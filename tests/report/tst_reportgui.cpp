// The GUI's review tools: the sidecar store (QSaveFile, never the recording), the PDF and HTML export, the search
// panel and its model, the bookmarks model and the notes dialog.
#include "ui/models/bookmarksmodel.h"
#include "ui/panes/mainwindow.h"
#include "ui/panes/notesdialog.h"
#include "ui/panes/searchpanel.h"
#include "ui/services/reportexport.h"
#include "ui/services/sidecarstore.h"

#include "core/generate/recordinggenerator.h"
#include "core/recording/recordingloader.h"
#include "core/report/backtrack.h"
#include "core/report/callselection.h"
#include "tests/report/pdftext.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace tf;

namespace {

std::shared_ptr<const recording::Run> writeAndLoad(const QString &path, int calls, std::uint64_t seed)
{
    generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = seed;
    const std::string bytes = generate::generateRecording(options);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()))
        return nullptr;
    f.close();
    return recording::loadRecording(path.toStdString()).run;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

int pdfPages(const QByteArray &pdf)
{
    int pages = 0;
    for (qsizetype at = pdf.indexOf("/Type /Page"); at >= 0; at = pdf.indexOf("/Type /Page", at + 1))
        if (at + 11 >= pdf.size() || pdf[at + 11] != 's')
            ++pages;
    return pages;
}

} // namespace

class TestReportGui : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void sidecarStoreWritesOnlyTheSidecar();
    void sidecarStoreKeepsABrokenSidecar();
    void sidecarStoreReportsASaveFailure();
    void pdfExport();
    void htmlExportAndExporter();
    void searchPanel();
    void bookmarksModel();
    void notesDialog();
    void mainWindowWiring();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_recording;
    std::shared_ptr<const recording::Run> m_run;
};

void TestReportGui::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_recording = m_dir->filePath(QStringLiteral("run.json"));
    m_run = writeAndLoad(m_recording, 10, 6);
    QVERIFY(m_run);
}

void TestReportGui::sidecarStoreWritesOnlyTheSidecar()
{
    const QByteArray before = readAll(m_recording);
    const QDateTime mtime = QFileInfo(m_recording).lastModified();
    ui::SidecarStore store;
    QSignalSpy changed(&store, &ui::SidecarStore::changed);
    QVERIFY(store.open(m_run));
    QVERIFY(store.isWritable());
    QCOMPARE(store.path(), m_recording + QStringLiteral(".tracefold.json"));
    QVERIFY(!QFileInfo::exists(store.path())); // opening writes nothing

    QVERIFY(store.toggleBookmark(2));
    QVERIFY(store.isBookmarked(2));
    QVERIFY(QFileInfo::exists(store.path()));
    const std::size_t callNote = store.addNote(store.callTarget(2), QStringLiteral("why did the prefix move?"));
    const notes::Target row = store.ledgerRowTarget(4, 1);
    QVERIFY(row.toolCallId.has_value());
    store.addNote(row, QStringLiteral("this standing is wrong"));
    QVERIFY(store.editNote(callNote, QStringLiteral("why did the prefix move here?")));
    QVERIFY(changed.count() >= 4);
    QVERIFY(!QFileInfo::exists(store.path() + QStringLiteral(".partial")));

    // What is on disk is what a new store (and the CLI) reads back.
    ui::SidecarStore again;
    QVERIFY(again.open(m_run));
    QVERIFY(again.isBookmarked(2));
    QCOMPARE(again.sidecar().notes.size(), std::size_t(2));
    QCOMPARE(again.sidecar().notes[0].text, std::string("why did the prefix move here?"));
    QVERIFY(again.sidecar().notes[1].target == row);
    QCOMPARE(again.resolution().orphanedNotes(), std::size_t(0));
    QCOMPARE(again.sidecar().recording, notes::identityOf(*m_run));
    QVERIFY(again.removeNote(0));
    QVERIFY(!again.toggleBookmark(2));
    QCOMPARE(notes::readSidecarFile(again.path().toStdString()).sidecar->notes.size(), std::size_t(1));

    QCOMPARE(readAll(m_recording), before);
    QCOMPARE(QFileInfo(m_recording).lastModified(), mtime);
}

void TestReportGui::sidecarStoreKeepsABrokenSidecar()
{
    const QString path = m_recording + QStringLiteral(".tracefold.json");
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"version\": 7}");
    }
    ui::SidecarStore store;
    QString error;
    QVERIFY(!store.open(m_run, &error));
    QVERIFY(error.contains(QStringLiteral("unsupported sidecar version 7")));
    QVERIFY(!store.isWritable());
    QVERIFY(!store.toggleBookmark(1));
    QCOMPARE(store.addNote(store.callTarget(1), QStringLiteral("x")), std::size_t(-1));
    QCOMPARE(readAll(path), QByteArray("{\"version\": 7}"));
}

void TestReportGui::sidecarStoreReportsASaveFailure()
{
    ui::SidecarStore store;
    QVERIFY(store.open(m_run));
    QSignalSpy failed(&store, &ui::SidecarStore::saveFailed);
    // The folder goes away under the open recording (its bytes stay mapped): the save has nowhere to go.
    QVERIFY(m_dir->remove());
    store.toggleBookmark(1);
    QCOMPARE(failed.count(), 1);
    QVERIFY(!store.lastError().isEmpty());
}

void TestReportGui::pdfExport()
{
    const QString pdf = m_dir->filePath(QStringLiteral("report.pdf"));
    QString error;
    QVERIFY2(ui::writeReport(*m_run, nullptr, pdf, &error), qPrintable(error));
    const QByteArray bytes = readAll(pdf);
    QVERIFY(bytes.startsWith("%PDF-"));
    QVERIFY(pdfPages(bytes) > 1);
    QVERIFY(ui::reportTitle(*m_run).contains(QString::fromStdString(m_run->runId)));
    // Landscape A4 (842 x 595 pt), and only the calls that matter in full, where the HTML export has every call.
    QVERIFY(bytes.contains("/MediaBox [0 0 842.000000 595.000000]"));
    QVERIFY(!bytes.contains("/MediaBox [0 0 595.000000 842.000000]"));
    const QString text = testsupport::popplerOutput("pdftotext", {pdf, QStringLiteral("-")});
    QVERIFY2(!text.isEmpty(), "pdftotext failed");
    const std::vector<std::size_t> relevant =
        report::selectCalls(recording::summarizeCalls(*m_run), m_run->outcome, m_run->limits,
                            report::backtrackAnswer(*m_run), {}, report::ReportDetail::Relevant)
            .detailedCalls();
    QVERIFY(relevant.size() < m_run->calls.size());
    QCOMPARE(std::size_t(text.count(QRegularExpression(QStringLiteral("Call \\d+ \u00B7 iteration")))),
             relevant.size());
    const QString html = m_dir->filePath(QStringLiteral("every.html"));
    QVERIFY2(ui::writeReport(*m_run, nullptr, html, &error), qPrintable(error));
    QCOMPARE(std::size_t(readAll(html).count("<section class=\"call\"")), m_run->calls.size());
    // An unwritable target fails with a message and leaves nothing behind.
    QVERIFY(!ui::writeReportPdf(QStringLiteral("<p>x</p>"), m_dir->filePath(QStringLiteral("no/such/dir/x.pdf")),
                                QStringLiteral("t"), &error));
    QVERIFY(!error.isEmpty());
}

void TestReportGui::htmlExportAndExporter()
{
    notes::Sidecar sidecar;
    sidecar.notes.push_back({{notes::TargetKind::Call, notes::callRefOf(m_run->calls[0]), std::nullopt, std::nullopt},
                             "exported note",
                             ""});
    ui::ReportExporter exporter;
    QSignalSpy finished(&exporter, &ui::ReportExporter::finished);
    const QString html = m_dir->filePath(QStringLiteral("report.html"));
    exporter.start(m_run, sidecar, html);
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QCOMPARE(finished.at(0).at(1).toString(), html);
    const QByteArray bytes = readAll(html);
    QVERIFY(bytes.startsWith("<!DOCTYPE html>"));
    QVERIFY(bytes.contains("exported note"));
    exporter.start(m_run, std::nullopt, m_dir->filePath(QStringLiteral("r.PDF")));
    QVERIFY(finished.wait(60000));
    QVERIFY(finished.at(1).at(0).toBool());
    QVERIFY(readAll(m_dir->filePath(QStringLiteral("r.PDF"))).startsWith("%PDF-"));
}

void TestReportGui::searchPanel()
{
    ui::SearchPanel panel;
    QAbstractItemModelTester tester(panel.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy finished(&panel, &ui::SearchPanel::searchFinished);
    QSignalSpy activated(&panel, &ui::SearchPanel::callActivated);
    QSignalSpy location(&panel, &ui::SearchPanel::locationActivated);
    panel.setRun(m_run);
    panel.search(QStringLiteral("lookup_port"));
    QTRY_VERIFY(panel.model()->result() != nullptr);
    QCOMPARE(panel.model()->rowCount(), int(m_run->calls.size()));
    const QModelIndex first = panel.model()->index(0, 0);
    QCOMPARE(first.data(ui::SearchResultsModel::OrdinalRole).toInt(), 0);
    QVERIFY(first.data(ui::SearchResultsModel::FirstAppearanceRole).toBool());
    QVERIFY(panel.model()->rowCount(first) >= 1);
    const QModelIndex child = panel.model()->index(0, ui::SearchResultsModel::CallColumn, first);
    QCOMPARE(child.parent(), first);
    QVERIFY(child.data(ui::SearchResultsModel::LocationRole).toString().startsWith(QStringLiteral("tools[")));

    auto *go = panel.findChild<QPushButton *>(QStringLiteral("searchGoToFirst"));
    QVERIFY(go && go->isEnabled());
    go->click();
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toInt(), 0);
    QCOMPARE(location.at(0).at(1).toString(), QStringLiteral("tools[lookup_port]"));

    auto *view = panel.findChild<QTreeView *>(QStringLiteral("searchResults"));
    QVERIFY(view);
    emit view->activated(panel.model()->index(2, 0));
    QCOMPARE(activated.last().at(0).toInt(), 2);

    // A text nobody served: no rows, and the button is off. Case folding is ASCII only, on request.
    panel.search(QStringLiteral("LOOKUP_PORT"));
    QTRY_COMPARE(panel.model()->rowCount(), 0);
    QTRY_VERIFY(!go->isEnabled());
    panel.findChild<QCheckBox *>(QStringLiteral("searchIgnoreCase"))->setChecked(true);
    QTRY_COMPARE(panel.model()->rowCount(), int(m_run->calls.size()));
    QVERIFY(finished.count() >= 3);
}

void TestReportGui::bookmarksModel()
{
    ui::SidecarStore store;
    QVERIFY(store.open(m_run));
    ui::BookmarksModel model(&store);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    store.toggleBookmark(5);
    store.addNote(store.callTarget(1), QStringLiteral("note on call 2"));
    store.addNote(store.callTarget(5), QStringLiteral("and one on the bookmarked call"));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, 0).data(ui::BookmarksModel::OrdinalRole).toInt(), 1);
    QCOMPARE(model.index(1, 0).data(ui::BookmarksModel::OrdinalRole).toInt(), 5);
    QCOMPARE(model.index(1, ui::BookmarksModel::BookmarkColumn).data().toString(), QStringLiteral("\u2605"));
    QCOMPARE(model.index(0, ui::BookmarksModel::BookmarkColumn).data().toString(), QString());
    QCOMPARE(model.index(0, ui::BookmarksModel::TextColumn).data().toString(), QStringLiteral("note on call 2"));
    QCOMPARE(model.rowOfCall(5), 1);
    QCOMPARE(model.rowOfCall(7), -1);

    // A sidecar entry the recording no longer holds is listed last, as orphaned.
    notes::Target gone;
    gone.call = {500, "call-llm#9999"};
    store.addNote(gone, QStringLiteral("orphan"));
    QCOMPARE(model.rowCount(), 3);
    QVERIFY(model.index(2, 0).data(ui::BookmarksModel::OrphanedRole).toBool());
    QCOMPARE(model.index(2, 0).data(ui::BookmarksModel::OrdinalRole).toInt(), -1);
    QVERIFY(model.index(2, 0).data().toString().contains(QStringLiteral("orphaned")));
    QVERIFY(model.index(2, ui::BookmarksModel::TextColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("not in this recording")));
}

void TestReportGui::notesDialog()
{
    ui::SidecarStore store;
    QVERIFY(store.open(m_run));
    ui::NotesDialog dialog(&store, 4);
    auto *editor = dialog.findChild<QPlainTextEdit *>(QStringLiteral("noteEditor"));
    auto *add = dialog.findChild<QPushButton *>(QStringLiteral("addNote"));
    auto *target = dialog.findChild<QComboBox *>(QStringLiteral("noteTarget"));
    QVERIFY(editor && add && target);
    const std::optional<json::Value> ledger = m_run->ledgerAt(m_run->calls[4]);
    QCOMPARE(target->count(), 1 + int(ledger->size()));

    editor->setPlainText(QStringLiteral("  a note on the call  "));
    add->click();
    QCOMPARE(store.sidecar().notes.size(), std::size_t(1));
    QCOMPARE(store.sidecar().notes[0].text, std::string("a note on the call"));
    QVERIFY(store.sidecar().notes[0].target == store.callTarget(4));

    target->setCurrentIndex(2); // ledger row #1
    QVERIFY(dialog.currentTarget().kind == notes::TargetKind::LedgerRow);
    editor->setPlainText(QStringLiteral("a note on row 1"));
    add->click();
    QCOMPARE(store.sidecar().notes.size(), std::size_t(2));
    QVERIFY(store.sidecar().notes[1].target == store.ledgerRowTarget(4, 1));
    auto *list = dialog.findChild<QListWidget *>(QStringLiteral("noteList"));
    QCOMPARE(list->count(), 1);

    list->setCurrentRow(0);
    editor->setPlainText(QStringLiteral("a better note on row 1"));
    dialog.findChild<QPushButton *>(QStringLiteral("updateNote"))->click();
    QCOMPARE(store.sidecar().notes[1].text, std::string("a better note on row 1"));
    list->setCurrentRow(0);
    dialog.findChild<QPushButton *>(QStringLiteral("deleteNote"))->click();
    QCOMPARE(store.sidecar().notes.size(), std::size_t(1));
    QVERIFY(QFileInfo::exists(store.path()));

    // Preselecting a row opens on that row.
    ui::NotesDialog onRow(&store, 4, std::size_t(3));
    QVERIFY(onRow.currentTarget() == store.ledgerRowTarget(4, 3));
}

void TestReportGui::mainWindowWiring()
{
    ui::MainWindow::Options options;
    options.persistSettings = false;
    options.progressDialog = false;
    options.errorDialogs = false;
    ui::MainWindow window(options);
    QSignalSpy loaded(&window, &ui::MainWindow::runLoaded);
    QSignalSpy shown(&window, &ui::MainWindow::callShown);
    window.openFile(m_recording);
    QVERIFY(loaded.wait(60000));
    QTRY_VERIFY(shown.count() > 0);

    for (const char *name : {"exportReportHtmlAction", "exportReportPdfAction", "toggleBookmarkAction", "notesAction",
                             "findInRunAction"}) {
        auto *action = window.findChild<QAction *>(QString::fromLatin1(name));
        QVERIFY2(action && action->isEnabled(), name);
    }
    // Export sits in the File menu, above Quit.
    QMenu *file = nullptr;
    for (QAction *a : window.menuBar()->actions())
        if (a->menu() &&
            a->menu()->actions().contains(window.findChild<QAction *>(QStringLiteral("exportReportPdfAction"))))
            file = a->menu();
    QVERIFY(file);
    QCOMPARE(window.findChild<QAction *>(QStringLiteral("toggleBookmarkAction"))->shortcut(),
             QKeySequence(Qt::CTRL | Qt::Key_B));

    // Ctrl+B on the current call writes the sidecar beside the recording, and the list shows it.
    const QByteArray before = readAll(m_recording);
    window.showCall(3);
    QTRY_COMPARE(window.currentCall(), 3);
    window.findChild<QAction *>(QStringLiteral("toggleBookmarkAction"))->trigger();
    const QString sidecar = m_recording + QStringLiteral(".tracefold.json");
    QVERIFY(QFileInfo::exists(sidecar));
    const auto read = notes::readSidecarFile(sidecar.toStdString());
    QVERIFY(read.sidecar && read.sidecar->bookmarks.size() == 1);
    QCOMPARE(read.sidecar->bookmarks[0].call, notes::callRefOf(m_run->calls[3]));
    QVERIFY(window.findChild<QAction *>(QStringLiteral("toggleBookmarkAction"))->isChecked());
    auto *list = window.findChild<QTreeView *>(QStringLiteral("bookmarksView"));
    QVERIFY(list);
    QCOMPARE(list->model()->rowCount(), 1);
    QCOMPARE(readAll(m_recording), before);

    // Find in Run opens the search dock; a result takes the window to its call.
    window.findChild<QAction *>(QStringLiteral("findInRunAction"))->trigger();
    auto *dock = window.findChild<QDockWidget *>(QStringLiteral("searchDock"));
    QVERIFY(dock && !dock->isHidden());
    auto *panel = window.findChild<ui::SearchPanel *>(QStringLiteral("searchPanel"));
    QVERIFY(panel);
    QSignalSpy searched(panel, &ui::SearchPanel::searchFinished);
    panel->search(QStringLiteral("read_zoning"));
    QTRY_VERIFY(panel->model()->result() != nullptr && panel->model()->rowCount() > 0);
    QModelIndex call7;
    for (int r = 0; r < panel->model()->rowCount(); ++r)
        if (panel->model()->index(r, 0).data(ui::SearchResultsModel::OrdinalRole).toInt() == 6)
            call7 = panel->model()->index(r, 0);
    QVERIFY(call7.isValid());
    emit panel->findChild<QTreeView *>(QStringLiteral("searchResults"))->activated(call7);
    QTRY_COMPARE(window.currentCall(), 6);
}

QTEST_MAIN(TestReportGui)
#include "tst_reportgui.moc"
