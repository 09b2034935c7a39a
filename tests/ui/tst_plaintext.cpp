// No widget interprets model or tool text as rich text (issue 8). A generated recording is rewritten so that tool
// results, tool call ids, tool names and the final answer carry markup (<b>, <img src=x>, <a href="javascript:...">);
// the main window opens it and, at every call, every widget is checked:
//  - a QLabel showing that text is Qt::PlainText (or the markup is escaped): Qt::mightBeRichText + textFormat;
//  - a widget tool tip, and every ToolTipRole of an item model, holds no live markup (QToolTip renders rich text);
//  - QTextEdit / QTextBrowser / QPlainTextEdit show the markup literally and embed no image or link from it;
//  - item models' DisplayRole hold the literal "<b>" (the data reached the views as text);
// and every copy action and Ctrl+C in an item view puts text/plain only on the clipboard (no text/html).
// The walk is by widget class, not by pane, so panes added later are covered too.

#include "ui/panes/mainwindow.h"

#include "core/generate/recordinggenerator.h"

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QLabel>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextEdit>

using namespace tf;

namespace {

// The markup as it would appear in a widget's text when it came from the recording unescaped.
bool holdsLiveMarkup(const QString &text)
{
    return text.contains(QLatin1String("<b>")) || text.contains(QLatin1String("<img")) ||
           text.contains(QLatin1String("<a href"));
}

void replaceAll(std::string &text, const std::string &from, const std::string &to)
{
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

// A generated run whose untrusted strings carry markup. JSON strings only: `"call_1"` with its quotes matches the
// id wherever it is a whole string (messages, tool calls, ledger rows, events), never inside another string.
std::string hostileRecording()
{
    generate::GeneratorOptions options;
    options.calls = 5;
    options.seed = 3;
    std::string text = generate::generateRecording(options);
    const std::string link = R"(<a href=\"javascript:alert(1)\">x</a>)";
    replaceAll(text, "\"call_1\"", "\"<b>bold</b>call_1\"");
    replaceAll(text, "\"call_2\"", "\"<img src=x>call_2\"");
    replaceAll(text, "\"call_3\"", "\"" + link + "call_3\"");
    replaceAll(text, "\"lookup_port\"", "\"<b>bold</b>lookup_port\"");
    replaceAll(text, "\"read_zoning\"", "\"<img src=x>read_zoning\"");
    replaceAll(text, "\"search_logs\"", "\"" + link + "search_logs\"");
    // Tool results (JSON inside a JSON string, so the link's quotes are escaped twice) and the final answer.
    replaceAll(text, "queue", R"(<b>bold</b> <img src=x> <a href=\\\"javascript:alert(1)\\\">x</a> queue)");
    replaceAll(text, " is flapping", " <b>bold</b> <img src=x> " + link + " is flapping");
    return text;
}

struct Walk
{
    int labelsWithMarkup = 0;  // labels that show the literal markup (the text reached them)
    int displayWithMarkup = 0; // item model cells whose DisplayRole holds "<b>"
    int textViewsWithMarkup = 0;
    QStringList failures;
};

QString describe(const QObject *o)
{
    QString path;
    for (; o; o = o->parent())
        path.prepend(QLatin1Char('/') + QString::fromLatin1(o->metaObject()->className()) +
                     (o->objectName().isEmpty() ? QString() : QLatin1Char('#') + o->objectName()));
    return path;
}

void checkModel(const QAbstractItemModel *model, const QModelIndex &parent, const QString &where, Walk &walk,
                int &budget)
{
    const int rows = model->rowCount(parent);
    const int columns = model->columnCount(parent);
    for (int r = 0; r < rows && budget > 0; ++r) {
        for (int c = 0; c < columns && budget > 0; ++c, --budget) {
            const QModelIndex index = model->index(r, c, parent);
            const QString display = model->data(index, Qt::DisplayRole).toString();
            if (display.contains(QLatin1String("<b>")))
                ++walk.displayWithMarkup;
            const QString tip = model->data(index, Qt::ToolTipRole).toString();
            if (holdsLiveMarkup(tip) && Qt::mightBeRichText(tip))
                walk.failures << where + QStringLiteral(": ToolTipRole of (%1,%2) renders markup: %3")
                                             .arg(r)
                                             .arg(c)
                                             .arg(tip.left(200));
            if (c == 0 && model->hasChildren(index))
                checkModel(model, index, where, walk, budget);
        }
    }
}

void checkWidgets(QWidget *root, Walk &walk)
{
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *w : widgets) {
        const QString where = describe(w);
        const QString tip = w->toolTip();
        if (holdsLiveMarkup(tip) && Qt::mightBeRichText(tip))
            walk.failures << where + QStringLiteral(": tool tip renders markup: ") + tip.left(200);
        if (auto *label = qobject_cast<QLabel *>(w)) {
            const QString text = label->text();
            if (holdsLiveMarkup(text)) {
                const bool rich = label->textFormat() == Qt::RichText ||
                                  (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(text)) ||
                                  label->textFormat() == Qt::MarkdownText;
                if (rich)
                    walk.failures << where + QStringLiteral(": label renders markup: ") + text.left(200);
                else
                    ++walk.labelsWithMarkup;
            }
        } else if (auto *edit = qobject_cast<QTextEdit *>(w)) { // QTextBrowser too
            const QString plain = edit->toPlainText();
            if (holdsLiveMarkup(plain))
                ++walk.textViewsWithMarkup;
            const QString html = edit->document()->toHtml();
            if (html.contains(QLatin1String("<img src=\"x\"")) || html.contains(QLatin1String("href=\"javascript")))
                walk.failures << where + QStringLiteral(": text view embeds an image or link from the recording");
            if (plain.contains(QLatin1String("bold")) && !plain.contains(QLatin1String("<b>bold")) &&
                html.contains(QLatin1String("font-weight:700")) && !holdsLiveMarkup(plain))
                walk.failures << where + QStringLiteral(": text view shows <b> as bold");
        } else if (auto *plainEdit = qobject_cast<QPlainTextEdit *>(w)) {
            if (holdsLiveMarkup(plainEdit->toPlainText()))
                ++walk.textViewsWithMarkup;
        } else if (auto *view = qobject_cast<QAbstractItemView *>(w)) {
            if (view->model()) {
                int budget = 20000;
                checkModel(view->model(), view->rootIndex(), where, walk, budget);
            }
        }
    }
}

// Copies through every copy action and Ctrl+C in every item view; the clipboard must hold plain text only.
void checkCopies(QMainWindow &window, QStringList &failures, int &copies)
{
    QClipboard *clipboard = QGuiApplication::clipboard();
    auto check = [&](const QString &what) {
        const QMimeData *mime = clipboard->mimeData();
        if (!mime || mime->formats().isEmpty())
            return; // nothing was copied (the action had nothing to copy at this call)
        ++copies;
        if (mime->hasHtml())
            failures << what + QStringLiteral(": the clipboard holds text/html");
        for (const QString &format : mime->formats())
            if (format != QLatin1String("text/plain") && !format.startsWith(QLatin1String("text/plain;")))
                failures << what + QStringLiteral(": the clipboard holds ") + format;
    };
    for (QAction *action : window.findChildren<QAction *>()) {
        const QString name = action->objectName() + QLatin1Char(' ') + action->text();
        if (!name.contains(QLatin1String("copy"), Qt::CaseInsensitive) || !action->isEnabled())
            continue;
        clipboard->clear();
        action->trigger();
        check(describe(action));
    }
    for (QAbstractItemView *view : window.findChildren<QAbstractItemView *>()) {
        if (!view->model() || view->model()->rowCount(view->rootIndex()) == 0)
            continue;
        clipboard->clear();
        view->setFocus();
        view->selectAll();
        QTest::keyClick(view, Qt::Key_C, Qt::ControlModifier);
        check(describe(view) + QStringLiteral(" Ctrl+C"));
    }
}

} // namespace

class TestPlainText : public QObject
{
    Q_OBJECT

private slots:
    void untrustedTextIsNeverRichText();
};

void TestPlainText::untrustedTextIsNeverRichText()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("markup.json"));
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const std::string bytes = hostileRecording();
        QCOMPARE(f.write(bytes.data(), qint64(bytes.size())), qint64(bytes.size()));
    }

    ui::MainWindow::Options options;
    options.persistSettings = false;
    options.progressDialog = false;
    options.errorDialogs = false;
    ui::MainWindow window(options);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy loaded(&window, &ui::MainWindow::runLoaded);
    QSignalSpy failed(&window, &ui::MainWindow::loadFailed);
    window.openFile(path);
    QVERIFY(loaded.count() == 1 || loaded.wait(60000));
    QCOMPARE(failed.count(), 0);
    QVERIFY(window.run() && window.run()->run);
    const int calls = int(window.run()->run->calls.size());
    QVERIFY(calls >= 3);

    Walk walk;
    int copies = 0;
    for (int i = 0; i < calls; ++i) {
        window.showCall(i);
        QTRY_VERIFY_WITH_TIMEOUT(window.currentBundle() && window.currentBundle()->ordinal == std::size_t(i) &&
                                     window.currentCall() == i,
                                 30000);
        QApplication::processEvents();
        checkWidgets(&window, walk);
        checkCopies(window, walk.failures, copies);
    }
    // Dialogs and floating docks are top-level widgets of their own.
    for (QWidget *top : QApplication::topLevelWidgets())
        if (top != &window && top->isVisible())
            checkWidgets(top, walk);

    for (const QString &f : walk.failures.mid(0, 40))
        qWarning("%s", qPrintable(f));
    QVERIFY2(walk.failures.isEmpty(), qPrintable(QString::number(walk.failures.size()) + QStringLiteral(" failures")));
    // The markup did reach the window, as text: the checks above were not vacuous.
    QVERIFY2(walk.displayWithMarkup > 0, "no item view shows the literal <b> of the recording");
    QVERIFY2(walk.labelsWithMarkup + walk.textViewsWithMarkup + walk.displayWithMarkup > calls,
             "too little of the recording's markup is on screen");
    QVERIFY2(copies > 0, "no copy action put anything on the clipboard");
    qInfo("%d labels, %d text views and %d item cells showed the markup as text; %d copies were plain text",
          walk.labelsWithMarkup, walk.textViewsWithMarkup, walk.displayWithMarkup, copies);
}

QTEST_MAIN(TestPlainText)
#include "tst_plaintext.moc"
