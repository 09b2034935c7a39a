// The workbench as a user meets it (issue 21): honest cache marks where nothing was measured, bookmarks and notes
// marked in the Calls list and the strip chart (and kept for the bundled sample), the export notice, Go to Call,
// back and forward, the shortcuts and legend, text zoom, full screen, the welcome page, plurals. Offscreen, by
// object name.

#include "uitesthelpers.h"
#include "windowfixture.h"

#include "ui/models/calllistmodel.h"
#include "ui/models/callstatus.h"
#include "ui/models/navigationhistory.h"
#include "ui/panes/mainwindow.h"
#include "ui/panes/welcomepage.h"
#include "ui/services/appsetup.h"
#include "ui/services/englishplurals.h"
#include "ui/services/reportexport.h"
#include "ui/services/sidecarstore.h"
#include "ui/widgets/filenotice.h"
#include "ui/widgets/glyphs.h"
#include "ui/widgets/stripchart.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QInputDialog>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QToolButton>
#include <QTreeWidget>
#include <QUrl>

#include <memory>

using namespace tf;
using namespace tf::ui;

class TestWorkbench : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void pluralsAreEnglish_data();
    void pluralsAreEnglish();
    void historyKeepsJumpsNotSteps();
    void unmeasuredCacheIsNotAHit();
    void bookmarksAndNotesAreMarked();
    void bundledSampleKeepsNotes();
    void exportSaysWhereItWent();
    void goToCall();
    void backAndForward();
    void shortcutsListEveryKey();
    void legendNamesEveryGlyph();
    void zoomScalesText();
    void fullScreenToggles();
    void welcomePageWhenNothingIsOpen();

private:
    bool open(const QString &path);
    bool show(int ordinal);
    QAction *action(const char *name) const { return m_window->findChild<QAction *>(QLatin1String(name)); }
    CallListModel *calls() const;

    std::unique_ptr<MainWindow> m_window;
};

namespace {

QList<QUrl> s_opened;
bool recordOpen(const QUrl &url)
{
    s_opened.append(url);
    return true;
}

QString realRun(const char *name)
{
    return QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/") + QLatin1String(name);
}

} // namespace

void TestWorkbench::initTestCase()
{
    test::setUpGuiTestApplication();
    FileNotice::setOpener(&recordOpen);
}

void TestWorkbench::init()
{
    m_window = test::shownTestWindow(false);
    QVERIFY(m_window);
}

void TestWorkbench::cleanup()
{
    m_window.reset();
}

bool TestWorkbench::open(const QString &path)
{
    return test::openAndShowFirstCall(*m_window, path);
}

bool TestWorkbench::show(int ordinal)
{
    return test::showCallAndWait(*m_window, ordinal);
}

CallListModel *TestWorkbench::calls() const
{
    auto *view = m_window->findChild<QTableView *>(QStringLiteral("callsView"));
    return view ? qobject_cast<CallListModel *>(view->model()) : nullptr;
}

void TestWorkbench::pluralsAreEnglish_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<int>("n");
    QTest::addColumn<QString>("expected");
    QTest::newRow("one-call") << "%n call(s)" << 1 << "1 call";
    QTest::newRow("many-calls") << "%n call(s)" << 80 << "80 calls";
    QTest::newRow("zero-calls") << "%n call(s)" << 0 << "0 calls";
    QTest::newRow("one-miss") << "%n miss(es) (M)" << 1 << "1 miss (M)";
    QTest::newRow("many-misses") << "%n miss(es) (M)" << 3 << "3 misses (M)";
    QTest::newRow("entry") << "%n entr(ies)" << 1 << "1 entry";
    QTest::newRow("entries") << "%n entr(ies)" << 2 << "2 entries";
    QTest::newRow("two-markers") << "%n ledger row(s) at this call" << 2 << "2 ledger rows at this call";
    QTest::newRow("no-marker") << "%n damaged (D)" << 2 << "2 damaged (D)";
}

void TestWorkbench::pluralsAreEnglish()
{
    QFETCH(QString, source);
    QFETCH(int, n);
    QFETCH(QString, expected);
    // Through tr(), as the panes write them: the translator the application installs picks the form.
    QCOMPARE(QCoreApplication::translate("tf::ui::CallsPane", source.toUtf8().constData(), nullptr, n), expected);
}

void TestWorkbench::historyKeepsJumpsNotSteps()
{
    NavigationHistory h;
    for (int call : {0, 1, 2, 3}) // reading call by call: one entry that moves along
        h.visit(call);
    QCOMPARE(h.entries(), QList<int>({3}));
    h.visit(40); // a jump
    h.visit(41);
    QCOMPARE(h.entries(), QList<int>({3, 41}));
    QCOMPARE(h.back(), 3);
    h.visit(3); // the call shown by going back is not a new entry
    QVERIFY(h.canGoForward());
    QCOMPARE(h.forward(), 41);
    h.visit(41);
    QCOMPARE(h.back(), 3);
    h.visit(3);
    h.visit(20); // somewhere new after going back: the forward entry goes
    QCOMPARE(h.entries(), QList<int>({3, 20}));
    QVERIFY(!h.canGoForward());
    QCOMPARE(h.forward(), -1);
}

void TestWorkbench::unmeasuredCacheIsNotAHit()
{
    // dev-3 comes from a mock provider that reports no cache usage.
    QVERIFY(open(realRun("dev-3-tool-errors.json")));
    CallListModel *model = calls();
    QVERIFY(model);
    int couldReuse = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
        const recording::CallSummary &c = m_window->run()->calls[std::size_t(r)];
        QCOMPARE(c.verdict, recording::CacheVerdict::Unmeasured);
        QVERIFY(!model->index(r, 0).data(CallListModel::CacheMissRole).toBool());
        const Glyph glyph = Glyph(model->index(r, CallListModel::CacheColumn).data(CallListModel::GlyphRole).toInt());
        QVERIFY(glyph != Glyph::CacheReusable); // a measured hit's mark
        if (c.prefixReusable == true) {
            QCOMPARE(glyph, Glyph::CacheReusableUnmeasured);
            QVERIFY(model->index(r, CallListModel::CacheColumn)
                        .data(Qt::ToolTipRole)
                        .toString()
                        .contains(QStringLiteral("not measured")));
            ++couldReuse;
        }
    }
    QVERIFY(couldReuse > 0);
    // dev-1 reports cache usage: its reusable calls keep the measured mark.
    QVERIFY(open(realRun("dev-1-research.json")));
    bool measuredHit = false;
    for (int r = 0; r < calls()->rowCount(); ++r)
        measuredHit = measuredHit ||
                      Glyph(calls()->index(r, CallListModel::CacheColumn).data(CallListModel::GlyphRole).toInt()) ==
                          Glyph::CacheReusable;
    QVERIFY(measuredHit);
}

void TestWorkbench::bookmarksAndNotesAreMarked()
{
    QTemporaryDir dir;
    const QString path = test::writeGenerated(dir, QStringLiteral("marks.json"), 20, 5);
    QVERIFY(open(path));
    auto *store = m_window->findChild<SidecarStore *>(QStringLiteral("sidecarStore"));
    QVERIFY(store && store->isWritable());
    // Calls the audit found nothing at: a problem's glyph outranks the reviewer's marks.
    QList<int> quiet;
    for (int r = 0; r < calls()->rowCount(); ++r)
        if (!calls()->index(r, 0).data(CallListModel::ProblemRole).isValid())
            quiet << r;
    QVERIFY(quiet.size() >= 3);
    const int marked = quiet[0], annotated = quiet[1], plain = quiet[2];
    QVERIFY(show(marked));
    action("toggleBookmarkAction")->trigger();
    QVERIFY(store->isBookmarked(marked));
    store->addNote(store->callTarget(annotated), QStringLiteral("look at the collapse here"));
    store->addNote(store->callTarget(annotated), QStringLiteral("and the receipt"));

    CallListModel *model = calls();
    QVERIFY(model->index(marked, 0).data(CallListModel::BookmarkedRole).toBool());
    QCOMPARE(Glyph(model->index(marked, CallListModel::CallColumn).data(CallListModel::GlyphRole).toInt()),
             Glyph::Bookmark);
    QCOMPARE(model->index(annotated, 0).data(CallListModel::NotesRole).toInt(), 2);
    QCOMPARE(Glyph(model->index(annotated, CallListModel::CallColumn).data(CallListModel::GlyphRole).toInt()),
             Glyph::Note);
    QVERIFY(model->index(annotated, CallListModel::CallColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("2 notes")));
    QVERIFY(!model->index(plain, CallListModel::CallColumn).data(CallListModel::GlyphRole).isValid());

    auto *strip = m_window->findChild<StripChart *>(QStringLiteral("stripChart"));
    QVERIFY(strip);
    QCOMPARE(strip->reviewMarks().bookmarked, QSet<int>({marked}));
    QCOMPARE(strip->reviewMarks().notes.value(annotated), 2);

    // Unbookmarking clears the mark; reopening the recording brings the marks back from its sidecar.
    QVERIFY(show(marked));
    action("toggleBookmarkAction")->trigger();
    QVERIFY(!model->index(marked, 0).data(CallListModel::BookmarkedRole).toBool());
    QVERIFY(strip->reviewMarks().bookmarked.isEmpty());
    QVERIFY(open(path));
    QCOMPARE(calls()->index(annotated, 0).data(CallListModel::NotesRole).toInt(), 2);
}

void TestWorkbench::bundledSampleKeepsNotes()
{
    QSignalSpy loaded(m_window.get(), &MainWindow::runLoaded);
    m_window->openBundledSample();
    QVERIFY(loaded.wait(60000));
    QVERIFY(m_window->run()->bundled);
    auto *store = m_window->findChild<SidecarStore *>(QStringLiteral("sidecarStore"));
    QVERIFY(store->isWritable());
    // In the user's data folder, never beside the application's own copy.
    QVERIFY(store->path().startsWith(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)));
    QVERIFY(show(2));
    store->addNote(store->callTarget(2), QStringLiteral("a note on the sample"));
    QVERIFY(QFile::exists(store->path()));
    QCOMPARE(calls()->index(2, 0).data(CallListModel::NotesRole).toInt(), 1);
    QVERIFY(store->removeNote(0));
}

void TestWorkbench::exportSaysWhereItWent()
{
    QTemporaryDir dir;
    QVERIFY(open(test::writeGenerated(dir, QStringLiteral("export.json"), 6, 2)));
    const QString out = dir.filePath(QStringLiteral("export.report.html"));
    QVERIFY(writeReport(*m_window->run()->run, nullptr, out));
    announceWrittenFile(m_window.get(), QStringLiteral("Report saved as export.report.html"), out);
    auto *notice = m_window->findChild<FileNotice *>(QStringLiteral("fileNotice"));
    QVERIFY(notice && notice->isVisible());
    QCOMPARE(notice->findChild<QLabel *>(QStringLiteral("fileNoticeText"))->text(),
             QStringLiteral("Report saved as export.report.html"));
    s_opened.clear();
    notice->findChild<QToolButton *>(QStringLiteral("fileNoticeOpen"))->click();
    notice->findChild<QToolButton *>(QStringLiteral("fileNoticeShowInFolder"))->click();
    QCOMPARE(s_opened, QList<QUrl>({QUrl::fromLocalFile(out), QUrl::fromLocalFile(dir.path())}));
    notice->findChild<QToolButton *>(QStringLiteral("fileNoticeClose"))->click();
    QVERIFY(!notice->isVisible());
}

void TestWorkbench::goToCall()
{
    QTemporaryDir dir;
    QVERIFY(open(test::writeGenerated(dir, QStringLiteral("goto.json"), 30, 4)));
    QCOMPARE(action("goToCallAction")->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_G));
    action("goToCallAction")->trigger();
    auto *dialog = m_window->findChild<QInputDialog *>(QStringLiteral("goToCallDialog"));
    QVERIFY(dialog);
    QCOMPARE(dialog->intMaximum(), 30);
    QCOMPARE(dialog->intMinimum(), 1);
    dialog->setIntValue(17);
    dialog->accept();
    QTRY_COMPARE(m_window->currentCall(), 16);
}

void TestWorkbench::backAndForward()
{
    QTemporaryDir dir;
    QVERIFY(open(test::writeGenerated(dir, QStringLiteral("history.json"), 30, 4)));
    QVERIFY(!action("backAction")->isEnabled());
    action("nextCallAction")->trigger(); // steps do not pile up
    action("nextCallAction")->trigger();
    QVERIFY(show(20));
    QVERIFY(show(25));
    action("backAction")->trigger();
    QCOMPARE(m_window->currentCall(), 20);
    action("backAction")->trigger();
    QCOMPARE(m_window->currentCall(), 2);
    QVERIFY(!action("backAction")->isEnabled());
    QVERIFY(action("forwardAction")->isEnabled());
    // The mouse's forward button, wherever the pointer is in the window.
    auto *view = m_window->findChild<QTableView *>(QStringLiteral("callsView"));
    QMouseEvent forward(QEvent::MouseButtonPress, QPointF(5, 5), view->viewport()->mapToGlobal(QPointF(5, 5)),
                        Qt::ForwardButton, Qt::ForwardButton, Qt::NoModifier);
    QApplication::sendEvent(view->viewport(), &forward);
    QCOMPARE(m_window->currentCall(), 20);
    QCOMPARE(action("backAction")->shortcut(), QKeySequence(Qt::ALT | Qt::Key_Left));
    QCOMPARE(action("forwardAction")->shortcut(), QKeySequence(Qt::ALT | Qt::Key_Right));
}

void TestWorkbench::shortcutsListEveryKey()
{
    action("shortcutsAction")->trigger();
    auto *dialog = m_window->findChild<QDialog *>(QStringLiteral("shortcutsDialog"));
    QVERIFY(dialog && dialog->isVisible());
    auto *tree = dialog->findChild<QTreeWidget *>(QStringLiteral("shortcutsTree"));
    QVERIFY(tree);
    QHash<QString, QString> keysOf; // action object name -> keys listed
    for (int g = 0; g < tree->topLevelItemCount(); ++g)
        for (int i = 0; i < tree->topLevelItem(g)->childCount(); ++i) {
            const QTreeWidgetItem *item = tree->topLevelItem(g)->child(i);
            keysOf.insert(item->data(0, Qt::UserRole).toString(), item->text(1));
        }
    // Every menu action with a key is listed, with that key.
    int checked = 0;
    for (QAction *a : m_window->findChildren<QAction *>()) {
        if (a->shortcut().isEmpty() || a->objectName().isEmpty() || a->associatedObjects().isEmpty())
            continue;
        QVERIFY2(keysOf.contains(a->objectName()), qPrintable(a->objectName()));
        QVERIFY(keysOf.value(a->objectName()).contains(a->shortcut().toString(QKeySequence::NativeText)));
        ++checked;
    }
    QVERIFY(checked > 20);
    dialog->close();
}

void TestWorkbench::legendNamesEveryGlyph()
{
    action("legendAction")->trigger();
    auto *dialog = m_window->findChild<QDialog *>(QStringLiteral("legendDialog"));
    QVERIFY(dialog);
    auto *tree = dialog->findChild<QTreeWidget *>(QStringLiteral("legendTree"));
    QSet<int> glyphs;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        const QVariant g = tree->topLevelItem(i)->data(0, Qt::UserRole);
        if (g.isValid()) {
            glyphs.insert(g.toInt());
            QVERIFY(!tree->topLevelItem(i)->text(1).isEmpty());
        }
    }
    for (int g = 0; g <= int(Glyph::Miss); ++g)
        QVERIFY2(glyphs.contains(g), qPrintable(QString::number(g)));
    dialog->close();
}

void TestWorkbench::zoomScalesText()
{
    QTemporaryDir dir;
    QVERIFY(open(test::writeGenerated(dir, QStringLiteral("zoom.json"), 6, 2)));
    auto *view = m_window->findChild<QTableView *>(QStringLiteral("callsView"));
    const qreal before = view->font().pointSizeF();
    action("zoomInAction")->trigger();
    action("zoomInAction")->trigger();
    QCOMPARE(m_window->textZoom(), 2);
    QVERIFY(view->font().pointSizeF() > before * 1.15);
    action("zoomResetAction")->trigger();
    QCOMPARE(view->font().pointSizeF(), before);
    action("zoomOutAction")->trigger();
    QVERIFY(view->font().pointSizeF() < before);
    m_window->zoomText(-100);
    QCOMPARE(m_window->textZoom(), -4); // bounded
    m_window->zoomText(0);
}

void TestWorkbench::fullScreenToggles()
{
    QCOMPARE(action("fullScreenAction")->shortcut(), QKeySequence(Qt::Key_F11));
    action("fullScreenAction")->trigger();
    QVERIFY(m_window->windowState() & Qt::WindowFullScreen);
    action("fullScreenAction")->trigger();
    QVERIFY(!(m_window->windowState() & Qt::WindowFullScreen));
}

void TestWorkbench::welcomePageWhenNothingIsOpen()
{
    auto *welcome = m_window->findChild<WelcomePage *>(QStringLiteral("welcomePage"));
    QVERIFY(welcome && welcome->isVisible());
    QVERIFY(welcome->geometry().height() > m_window->height() / 2);
    // A file that cannot be read: the page stays and says why.
    QTemporaryDir dir;
    QSignalSpy failed(m_window.get(), &MainWindow::loadFailed);
    m_window->openFile(test::writeTruncated(dir));
    QVERIFY(failed.wait(20000));
    QVERIFY(welcome->isVisible());
    QVERIFY(welcome->findChild<QLabel *>(QStringLiteral("welcomeMessage"))
                ->text()
                .contains(QStringLiteral("truncated.json")));
    // The sample button opens the sample; closing the recording brings the page back.
    QSignalSpy loaded(m_window.get(), &MainWindow::runLoaded);
    welcome->findChild<QPushButton *>(QStringLiteral("welcomeSample"))->click();
    QVERIFY(loaded.wait(60000));
    QVERIFY(!welcome->isVisible());
    QCOMPARE(action("closeAction")->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_W));
    action("closeAction")->trigger();
    QVERIFY(welcome->isVisible());
    QVERIFY(!m_window->run());
    QVERIFY(!action("nextCallAction")->isEnabled());
}

QTEST_MAIN(TestWorkbench)
#include "tst_workbench.moc"
