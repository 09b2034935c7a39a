// The Problems dock (issue 20): the core's audit, computed by the loader off the GUI thread, listed with severity,
// rule, call and message; a double-click opens the call in the pane that shows the problem; the counts in the summary
// bar; the Calls list marks calls with problems. Offscreen; widgets found by object name.

#include "uitesthelpers.h"
#include "windowfixture.h"

#include "ui/models/calllistmodel.h"
#include "ui/models/problemsmodel.h"
#include "ui/panes/mainwindow.h"
#include "ui/services/appsetup.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/glyphs.h"

#include "core/audit/runaudit.h"

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QTreeView>

using namespace tf;
using namespace tf::ui;

namespace {

QString real(const char *name)
{
    return QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/") + QLatin1String(name);
}

} // namespace

class TestProblems : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void loaderComputesTheAudit_data();
    void loaderComputesTheAudit();
    void modelRows();
    void dockListsAndCounts();
    void doubleClickOpensTheCallInItsPane_data();
    void doubleClickOpensTheCallInItsPane();
    void callsListMarksProblems();

private:
    bool open(const QString &path);
    QTreeView *problemsView() const { return m_window->findChild<QTreeView *>(QStringLiteral("problemsView")); }
    QString summary(const char *field) const
    {
        auto *label = m_window->findChild<ElidedLabel *>(QLatin1String(field));
        return label ? label->text() : QStringLiteral("<missing>");
    }

    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_dir;
};

void TestProblems::initTestCase()
{
    test::setUpGuiTestApplication();
    QVERIFY(m_dir.isValid());
}

void TestProblems::init()
{
    m_window = test::shownTestWindow();
    QVERIFY(m_window);
}

void TestProblems::cleanup()
{
    m_window.reset();
}

bool TestProblems::open(const QString &path)
{
    return test::openAndShowFirstCall(*m_window, path);
}

void TestProblems::loaderComputesTheAudit_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("crash") << real("dev-4-crash.json");
    QTest::newRow("tool-errors") << real("dev-3-tool-errors.json");
    QTest::newRow("clean") << real("dev-2-conversation.json");
    QTest::newRow("generated-damaged") << test::writeGenerated(m_dir, QStringLiteral("damaged.json"), 12, 5,
                                                               {generate::Damage::Kind::SchemaByte, 6});
}

void TestProblems::loaderComputesTheAudit()
{
    QFETCH(QString, path);
    const RunHandle run = test::loadOrFail(path);
    QVERIFY(run);
    // What the window lists is the core's audit of the run, computed once by the loader.
    QCOMPARE(run->problems, audit::auditRun(*run->run, run->calls));
    QCOMPARE(run->problemAtCall, audit::worstSeverityByCall(run->problems, run->calls.size()));
}

void TestProblems::modelRows()
{
    const RunHandle run = test::loadOrFail(real("dev-3-tool-errors.json"));
    ProblemsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRun(run);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), int(ProblemsModel::ColumnCount));
    const auto cell = [&](int row, int column, int role = Qt::DisplayRole) {
        return model.index(row, column).data(role);
    };
    QCOMPARE(cell(0, ProblemsModel::SeverityColumn).toString(), QStringLiteral("Warning"));
    QCOMPARE(cell(0, ProblemsModel::SeverityColumn, ProblemsModel::GlyphRole).toInt(), int(Glyph::ProblemWarning));
    QCOMPARE(cell(0, ProblemsModel::RuleColumn).toString(), QStringLiteral("tool-error"));
    QCOMPARE(cell(0, ProblemsModel::CallColumn).toString(), QStringLiteral("1"));
    QCOMPARE(cell(1, ProblemsModel::CallColumn).toString(), QStringLiteral("3"));
    QCOMPARE(cell(1, 0, ProblemsModel::OrdinalRole).toInt(), 2);
    QCOMPARE(cell(1, 0, ProblemsModel::PaneRole).toInt(), int(ProblemPane::Response));
    QVERIFY(
        cell(0, ProblemsModel::MessageColumn).toString().startsWith(QStringLiteral("pipeline_status (ci-1) threw")));
    // The tooltip quotes the message in full and the rule's condition, escaped for QToolTip.
    const QString tip = cell(1, ProblemsModel::MessageColumn, Qt::ToolTipRole).toString();
    QVERIFY(tip.contains(QStringLiteral("403 Forbidden")));
    QVERIFY(tip.contains(QStringLiteral("tool-error: ")));

    model.setRun(test::loadOrFail(real("dev-4-crash.json")));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, ProblemsModel::CallColumn).data().toString(), QStringLiteral("run"));
    QCOMPARE(model.index(0, 0).data(ProblemsModel::OrdinalRole).toInt(), -1);
    QCOMPARE(model.index(0, ProblemsModel::SeverityColumn).data().toString(), QStringLiteral("Error"));
    model.setRun(nullptr);
    QCOMPARE(model.rowCount(), 0);
}

void TestProblems::dockListsAndCounts()
{
    auto *dock = m_window->findChild<QDockWidget *>(QStringLiteral("problemsDock"));
    QVERIFY(dock);
    QVERIFY(open(real("dev-4-crash.json")));
    QVERIFY(problemsView());
    QCOMPARE(problemsView()->model()->rowCount(), 2);
    QCOMPARE(summary("summaryProblems"), QStringLiteral("2 errors"));
    QVERIFY(dock->isVisible()); // a run with problems shows the dock
    QVERIFY(open(real("dev-3-tool-errors.json")));
    QCOMPARE(problemsView()->model()->rowCount(), 2);
    QCOMPARE(summary("summaryProblems"), QStringLiteral("2 warnings"));
    QVERIFY(open(real("dev-2-conversation.json")));
    QCOMPARE(problemsView()->model()->rowCount(), 0);
    QCOMPARE(summary("summaryProblems"), QStringLiteral("none"));
}

void TestProblems::doubleClickOpensTheCallInItsPane_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("rule");
    QTest::addColumn<int>("ordinal");
    QTest::addColumn<QString>("pane");
    QTest::newRow("tool-error: Response")
        << real("dev-3-tool-errors.json") << QStringLiteral("tool-error") << 2 << QStringLiteral("responsePane");
    QTest::newRow("no-response: Response")
        << real("dev-4-crash.json") << QStringLiteral("no-response") << 2 << QStringLiteral("responsePane");
    QTest::newRow("receipt-damaged: Receipt")
        << test::writeGenerated(m_dir, QStringLiteral("schema.json"), 12, 5, {generate::Damage::Kind::SchemaByte, 6})
        << QStringLiteral("receipt-damaged") << 5 << QStringLiteral("receiptPane");
    QTest::newRow("cache-rewrite-streak: Since Previous Call")
        << test::writeGenerated(m_dir, QStringLiteral("plain.json"), 12, 5) << QStringLiteral("cache-rewrite-streak")
        << 6 << QStringLiteral("sincePreviousPane");
}

void TestProblems::doubleClickOpensTheCallInItsPane()
{
    QFETCH(QString, path);
    QFETCH(QString, rule);
    QFETCH(int, ordinal);
    QFETCH(QString, pane);
    QVERIFY(open(path));
    // Another pane is in front first, so the double-click has something to raise.
    for (const char *other : {"findingsDock", "sincePreviousDock"})
        m_window->findChild<QDockWidget *>(QLatin1String(other))->raise();
    m_window->findChild<QDockWidget *>(QStringLiteral("responseDock"))->hide();
    QTreeView *view = problemsView();
    QModelIndex target;
    for (int r = 0; r < view->model()->rowCount() && !target.isValid(); ++r) {
        const QModelIndex i = view->model()->index(r, ProblemsModel::RuleColumn);
        if (i.data().toString() == rule && i.data(ProblemsModel::OrdinalRole).toInt() == ordinal)
            target = i;
    }
    QVERIFY(target.isValid());
    view->scrollTo(target);
    const QPoint at = view->visualRect(target).center();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, at);
    QTRY_COMPARE(m_window->currentCall(), ordinal);
    QTRY_VERIFY(m_window->currentBundle() && int(m_window->currentBundle()->ordinal) == ordinal);
    auto *shown = m_window->findChild<QWidget *>(pane);
    QVERIFY(shown);
    QTRY_VERIFY(shown->isVisible());
    // The list follows the call shown: its first problem is the current row.
    m_window->showCall(0);
    QTRY_COMPARE(m_window->currentCall(), 0);
    bool firstCallHasProblems = false;
    for (int r = 0; r < view->model()->rowCount(); ++r)
        firstCallHasProblems = firstCallHasProblems || view->model()->index(r, 0).data(ProblemsModel::OrdinalRole) == 0;
    const QModelIndex current = view->currentIndex();
    QCOMPARE(current.isValid(), firstCallHasProblems);
    if (current.isValid())
        QCOMPARE(current.data(ProblemsModel::OrdinalRole).toInt(), 0);
    m_window->showCall(ordinal);
    QTRY_COMPARE(view->currentIndex().data(ProblemsModel::OrdinalRole).toInt(), ordinal);
}

void TestProblems::callsListMarksProblems()
{
    QVERIFY(open(real("dev-4-crash.json")));
    auto *calls = m_window->findChild<QTableView *>(QStringLiteral("callsView"));
    QVERIFY(calls);
    const auto glyph = [&](int row) {
        return calls->model()->index(row, CallListModel::CallColumn).data(CallListModel::GlyphRole);
    };
    QVERIFY(!glyph(0).isValid());
    QVERIFY(!glyph(1).isValid());
    QCOMPARE(glyph(2).toInt(), int(Glyph::ProblemError));
    QCOMPARE(calls->model()->index(2, CallListModel::CallColumn).data(CallListModel::ProblemRole).toInt(),
             int(audit::Severity::Error));
    QVERIFY(calls->model()
                ->index(2, CallListModel::CallColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("no-response")));
    QVERIFY(open(real("dev-3-tool-errors.json")));
    QCOMPARE(glyph(0).toInt(), int(Glyph::ProblemWarning));
    QVERIFY(!glyph(1).isValid());
    QCOMPARE(glyph(2).toInt(), int(Glyph::ProblemWarning));
}

QTEST_MAIN(TestProblems)
#include "tst_problems.moc"
