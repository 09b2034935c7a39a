// The Timeline and Transcript docks in the window, offscreen, every widget found by object name: a click on a span
// selects its call, the wheel zooms about the cursor, a dragged range shows only its calls in the Calls list, tool
// errors are painted red, a run without timestamps says so; the transcript shows collapse tickets as sent and marks
// the messages new since the previous call. With TRACEFOLD_SCREENSHOT_DIR set, the docks are saved there as PNGs
// (docs/screenshots/timeline.png and transcript.png come from here).

#include "uitesthelpers.h"
#include "windowfixture.h"

#include "ui/models/transcriptmodel.h"
#include "ui/panes/callspane.h"
#include "ui/panes/mainwindow.h"
#include "ui/panes/responsepane.h"
#include "ui/panes/timelinepane.h"
#include "ui/panes/transcriptpane.h"
#include "ui/services/appsetup.h"
#include "ui/widgets/calltableview.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/stripchart.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/timelinechart.h"
#include "ui/widgets/transcriptview.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QWheelEvent>

using namespace tf;
using namespace tf::ui;

namespace {

QString sample(const char *name)
{
    return QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/") + QLatin1String(name);
}

void wheel(QWidget *widget, const QPointF &at, int delta, Qt::KeyboardModifiers modifiers = {})
{
    QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, modifiers,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
}

void saveShot(QWidget *widget, const char *name)
{
    const QString dir = qEnvironmentVariable("TRACEFOLD_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        widget->grab().save(dir + QLatin1Char('/') + QLatin1String(name));
}

int visibleRows(QTableView *view)
{
    int n = 0;
    for (int r = 0; r < view->model()->rowCount(); ++r)
        n += view->isRowHidden(r) ? 0 : 1;
    return n;
}

} // namespace

class TestTimeline : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void clickSelectsCall();
    void wheelZoomsAboutTheCursor();
    void rangeShowsOnlyItsCalls();
    void toolErrorsArePaintedRed();
    void pausedRunSaysWhatIsOpen();
    void noTimestampsSaysSo();
    void thousandsOfCallsStayFast();
    void transcriptShowsTicketsAndNewMessages();
    void transcriptFoldsToolResults();
    void hiddenTranscriptScrollsWhenShown();
    void hiddenToolDetailIsSetWhenShown();
    void newDocksKeepTheWindowsMinimum();

private:
    bool open(const QString &path);
    bool show(int ordinal);
    TimelineChart *chart() const { return m_window->findChild<TimelineChart *>(QStringLiteral("timelineChart")); }
    void raise(const char *dock) { m_window->findChild<QDockWidget *>(QLatin1String(dock))->raise(); }

    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_dir;
};

void TestTimeline::initTestCase()
{
    test::setUpGuiTestApplication();
    QVERIFY(m_dir.isValid());
}

void TestTimeline::init()
{
    m_window = test::shownTestWindow();
    QVERIFY(m_window);
}

void TestTimeline::cleanup()
{
    m_window.reset();
}

bool TestTimeline::open(const QString &path)
{
    return test::openAndShowFirstCall(*m_window, path);
}

bool TestTimeline::show(int ordinal)
{
    return test::showCallAndWait(*m_window, ordinal);
}

void TestTimeline::clickSelectsCall()
{
    QVERIFY(open(sample("dev-3-tool-errors.json")));
    raise("timelineDock");
    TimelineChart *c = chart();
    QVERIFY(c && c->isVisible());
    QVERIFY(c->height() >= c->rowRect(TimelineChart::Row::Tools).bottom()); // every row fits at 1400×900
    for (int call : {3, 1, 2}) {
        const std::optional<QPointF> centre = c->callSpanCentre(call);
        QVERIFY(centre);
        QTest::mouseClick(c, Qt::LeftButton, {}, centre->toPoint());
        QTRY_COMPARE(m_window->currentCall(), call);
        QTRY_VERIFY(m_window->currentBundle() && int(m_window->currentBundle()->ordinal) == call);
        QCOMPARE(c->currentCall(), call);
    }
    // A click on a tool run selects the call that asked for it: ci-4 ran for call 3.
    const recording::TimelineSpan &ci4 = m_window->run()->timeline->tools.back();
    QCOMPARE(ci4.toolId, std::string_view("ci-4"));
    c->zoomAt(0.02, c->xForTime(ci4.startMs)); // close enough that the tool is wider than a pixel
    QTest::mouseClick(
        c, Qt::LeftButton, {},
        QPointF(c->xForTime((ci4.startMs + ci4.endMs) / 2) + 1, c->rowRect(TimelineChart::Row::Tools).top() + 4)
            .toPoint());
    QTRY_COMPARE(m_window->currentCall(), 2);
    saveShot(m_window->findChild<QDockWidget *>(QStringLiteral("timelineDock")), "timeline-dev3.png");
}

void TestTimeline::wheelZoomsAboutTheCursor()
{
    QVERIFY(open(sample("dev-2-conversation.json")));
    raise("timelineDock");
    TimelineChart *c = chart();
    const double from = c->visibleFromMs(), to = c->visibleToMs();
    QVERIFY(from <= 0 && to >= m_window->run()->timeline->endMs);
    const QPointF at(c->plotRect().left() + c->plotRect().width() * 0.3,
                     c->rowRect(TimelineChart::Row::Calls).center().y());
    const double anchor = c->timeAt(at.x());
    QSignalSpy changed(c, &TimelineChart::visibleRangeChanged);
    wheel(c, at, 120 * 3); // three notches in
    QVERIFY(changed.count() >= 1);
    const double zoomedWidth = c->visibleToMs() - c->visibleFromMs();
    QVERIFY2(zoomedWidth < (to - from) * 0.6, qPrintable(QString::number(zoomedWidth)));
    QVERIFY(std::abs(c->timeAt(at.x()) - anchor) < 0.5); // the time under the cursor stays under it
    QVERIFY(c->visibleFromMs() > from && c->visibleToMs() < to);
    // Shift+wheel pans at the same zoom.
    const double before = c->visibleFromMs();
    wheel(c, at, -120, Qt::ShiftModifier);
    QVERIFY(c->visibleFromMs() > before);
    QVERIFY(std::abs((c->visibleToMs() - c->visibleFromMs()) - zoomedWidth) < 1e-6);
    // Out again, and the Fit button shows the whole run.
    wheel(c, at, -120 * 20);
    QCOMPARE(c->visibleFromMs(), from);
    QCOMPARE(c->visibleToMs(), to);
    wheel(c, at, 120 * 5);
    QVERIFY(m_window->findChild<TimelinePane *>(QStringLiteral("timelinePane"))
                ->noteText()
                .startsWith(QStringLiteral("Showing ")));
    m_window->findChild<QAbstractButton *>(QStringLiteral("timelineFitButton"))->click();
    QCOMPARE(c->visibleFromMs(), from);
    QCOMPARE(c->visibleToMs(), to);
    saveShot(m_window->findChild<QDockWidget *>(QStringLiteral("timelineDock")), "timeline-dev2.png");
    if (!qEnvironmentVariableIsEmpty("TRACEFOLD_SCREENSHOT_DIR")) { // the README's picture, floated at a readable size
        auto *dock = m_window->findChild<QDockWidget *>(QStringLiteral("timelineDock"));
        dock->setFloating(true);
        dock->resize(1100, 172);
        QVERIFY(show(3));
        QTest::qWait(50);
        saveShot(dock, "timeline.png");
        dock->setFloating(false);
    }
}

void TestTimeline::rangeShowsOnlyItsCalls()
{
    QVERIFY(open(sample("dev-2-conversation.json")));
    raise("timelineDock");
    TimelineChart *c = chart();
    auto *calls = m_window->findChild<QTableView *>(QStringLiteral("callsView"));
    QCOMPARE(visibleRows(calls), 7);
    // Turn 2 of the conversation: calls 3 and 4 (0-based 2 and 3).
    const recording::TimelineView &v = *m_window->run()->timeline;
    const double a = v.calls[2].startMs - 1, b = v.calls[3].endMs + 1;
    const int y = int(c->rowRect(TimelineChart::Row::Calls).center().y());
    QSignalSpy range(c, &TimelineChart::rangeSelected);
    QTest::mousePress(c, Qt::LeftButton, {}, QPoint(int(c->xForTime(a)), y));
    QTest::mouseMove(c, QPoint(int(c->xForTime((a + b) / 2)), y));
    QTest::mouseMove(c, QPoint(int(c->xForTime(b)), y));
    QTest::mouseRelease(c, Qt::LeftButton, {}, QPoint(int(c->xForTime(b)), y));
    QCOMPARE(range.count(), 1);
    QCOMPARE(range.at(0).at(0).toInt(), 2);
    QCOMPARE(range.at(0).at(1).toInt(), 3);
    QTRY_COMPARE(m_window->currentCall(), 2); // its first call is selected
    QCOMPARE(visibleRows(calls), 2);
    QVERIFY(!calls->isRowHidden(2) && !calls->isRowHidden(3) && calls->isRowHidden(0) && calls->isRowHidden(6));
    QVERIFY(m_window->findChild<ElidedLabel *>(QStringLiteral("callsFooter"))
                ->text()
                .startsWith(QStringLiteral("Calls 3–4 of 7")));
    QVERIFY(m_window->findChild<TimelinePane *>(QStringLiteral("timelinePane"))
                ->noteText()
                .contains(QStringLiteral("calls 3–4")));
    saveShot(m_window.get(), "timeline-range-window.png");
    // Show all in the Calls list clears the range in both.
    m_window->findChild<QAbstractButton *>(QStringLiteral("callsShowAllButton"))->click();
    QCOMPARE(visibleRows(calls), 7);
    QVERIFY(!c->selectedRange());
    // A right click in the timeline clears a range too; a call chosen outside it shows every call again.
    QTest::mousePress(c, Qt::LeftButton, {}, QPoint(int(c->xForTime(a)), y));
    QTest::mouseMove(c, QPoint(int(c->xForTime(b)), y));
    QTest::mouseRelease(c, Qt::LeftButton, {}, QPoint(int(c->xForTime(b)), y));
    QCOMPARE(visibleRows(calls), 2);
    QTest::mouseClick(c, Qt::RightButton, {}, QPoint(int(c->xForTime(a)), y));
    QCOMPARE(visibleRows(calls), 7);
    QTest::mousePress(c, Qt::LeftButton, {}, QPoint(int(c->xForTime(a)), y));
    QTest::mouseMove(c, QPoint(int(c->xForTime(b)), y));
    QTest::mouseRelease(c, Qt::LeftButton, {}, QPoint(int(c->xForTime(b)), y));
    QCOMPARE(visibleRows(calls), 2);
    QVERIFY(show(6));
    QCOMPARE(visibleRows(calls), 7);
    QVERIFY(!c->selectedRange());
}

void TestTimeline::toolErrorsArePaintedRed()
{
    QVERIFY(open(sample("dev-3-tool-errors.json")));
    raise("timelineDock");
    TimelineChart *c = chart();
    const recording::TimelineView &v = *m_window->run()->timeline;
    const QColor red = theme::strong(theme::Tone::Bad, c->palette());
    const auto colourAt = [&](const recording::TimelineSpan &tool) {
        c->zoomAt(1e-6, c->xForTime(tool.startMs)); // the deepest zoom, about the tool
        c->zoomAt(2, c->xForTime(tool.startMs));
        const QImage image = c->grab().toImage();
        const qreal x = std::max(c->xForTime(tool.startMs), c->plotRect().left()) + 3 +
                        c->rowRect(TimelineChart::Row::Tools).height(); // past the error glyph
        const QPoint p(
            int(std::min(x, (c->xForTime(tool.endMs) + c->xForTime(tool.startMs)) / 2)),
            int(c->rowRect(TimelineChart::Row::Tools).top() + c->toolLaneHeight() * (qreal(tool.lane) + 0.5)));
        c->fitAll();
        return image.pixelColor(p * c->devicePixelRatioF());
    };
    int reds = 0;
    for (const recording::TimelineSpan &tool : v.tools) {
        const QColor seen = colourAt(tool);
        QCOMPARE(seen == red, tool.error);
        reds += seen == red ? 1 : 0;
    }
    QCOMPARE(reds, 2);
}

void TestTimeline::pausedRunSaysWhatIsOpen()
{
    QVERIFY(open(sample("dev-7-paused-or-limited.json")));
    raise("timelineDock");
    const QString note = m_window->findChild<TimelinePane *>(QStringLiteral("timelinePane"))->noteText();
    QVERIFY2(note.contains(QStringLiteral("with no end on record, dashed")), qPrintable(note));
    saveShot(m_window->findChild<QDockWidget *>(QStringLiteral("timelineDock")), "timeline-dev7.png");
}

void TestTimeline::noTimestampsSaysSo()
{
    QFile source(sample("dev-3-tool-errors.json"));
    QVERIFY(source.open(QIODevice::ReadOnly));
    QByteArray bytes = source.readAll();
    bytes.replace("\"wallClockMs\"", "\"wallClockMx\"");
    QVERIFY(open(test::writeFile(m_dir, QStringLiteral("untimed.json"), bytes)));
    raise("timelineDock");
    QVERIFY(!m_window->run()->timeline->timed);
    const QString note = m_window->findChild<TimelinePane *>(QStringLiteral("timelinePane"))->noteText();
    QVERIFY2(note.startsWith(QStringLiteral("Not on record")), qPrintable(note));
    QVERIFY(!chart()->callSpanCentre(0));
    QVERIFY(!m_window->findChild<QAbstractButton *>(QStringLiteral("timelineFitButton"))->isEnabled());
}

void TestTimeline::thousandsOfCallsStayFast()
{
    generate::GeneratorOptions options;
    options.calls = 3000;
    options.seed = 77;
    options.resultBytes = 300;
    options.historyInIterationEnd = false;
    options.historyWindow = 8;
    options.turnCalls = 25;
    const std::string text = generate::generateRecording(options);
    QVERIFY(open(test::writeFile(m_dir, QStringLiteral("long.json"), QByteArray::fromStdString(text))));
    raise("timelineDock");
    TimelineChart *c = chart();
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < 10; ++i)
        c->repaint();
    const qint64 wholeRun = timer.elapsed();
    wheel(c, c->plotRect().center(), 120 * 12);
    timer.restart();
    for (int i = 0; i < 10; ++i)
        c->repaint();
    const qint64 zoomed = timer.elapsed();
    qInfo("10 repaints of 3,000 calls: %lld ms whole run, %lld ms zoomed", wholeRun, zoomed);
    saveShot(m_window->findChild<QDockWidget *>(QStringLiteral("timelineDock")), "timeline-3000-zoomed.png");
    QVERIFY2(wholeRun < 2000, "a repaint of the whole run takes over 200 ms");
    // The click still finds its call among thousands.
    const int target = 1500;
    c->setCurrentCall(target); // pans it into view
    const recording::TimelineSpan &span = m_window->run()->timeline->calls[target];
    QCOMPARE(span.call, std::optional<std::size_t>(target));
    // Close enough that the call is a few dozen pixels wide (at the whole run it is below a pixel).
    c->zoomAt(40 * (span.endMs - span.startMs + 1) / (c->visibleToMs() - c->visibleFromMs()),
              c->xForTime((span.startMs + span.endMs) / 2));
    const std::optional<QPointF> centre = c->callSpanCentre(target);
    QVERIFY(centre && c->plotRect().contains(*centre));
    QTest::mouseClick(c, Qt::LeftButton, {}, centre->toPoint());
    QTRY_COMPARE(m_window->currentCall(), target);

    // The Strip Chart zooms the same way, and keeps the selected call in its window.
    raise("stripDock");
    auto *strip = m_window->findChild<StripChart *>(QStringLiteral("stripChart"));
    QVERIFY(strip && strip->isVisible());
    QCOMPARE(strip->visibleCallCount(), 3000);
    wheel(strip, QPointF(strip->slotCentre(target), strip->height() / 2.0), 120 * 14);
    QVERIFY2(strip->visibleCallCount() < 200, qPrintable(QString::number(strip->visibleCallCount())));
    QVERIFY(strip->firstVisibleCall() <= target && target < strip->firstVisibleCall() + strip->visibleCallCount());
    saveShot(m_window->findChild<QDockWidget *>(QStringLiteral("stripDock")), "strip-3000-zoomed.png");
}

void TestTimeline::hiddenTranscriptScrollsWhenShown()
{
    // A call switch places the transcript at the call's first new message; behind another tab that waits until the
    // dock is raised, and lands where it would have landed had the dock been on top all along.
    QVERIFY(open(test::writeGenerated(m_dir, QStringLiteral("armed-hidden.json"), 16, 2)));
    auto *pane = m_window->findChild<TranscriptPane *>(QStringLiteral("transcriptPane"));
    auto *view = m_window->findChild<TranscriptView *>(QStringLiteral("transcriptView"));
    QVERIFY(pane && view);
    const TranscriptModel *model = pane->model();
    // A late call: a long conversation whose first new message is below the top.
    const int call = int(m_window->run()->calls.size()) - 2;
    raise("transcriptDock");
    QVERIFY(show(call));
    QTest::qWait(20);
    const int onTop = view->verticalScrollBar()->value();
    int firstNew = -1;
    for (int r = 0; r < model->rowCount() && firstNew < 0; ++r)
        if (model->index(r).data(TranscriptModel::NewRole).toBool())
            firstNew = r;
    QVERIFY(firstNew > 0);
    QVERIFY2(onTop > 0, "the call's first new message is not at the top of a long conversation");
    QCOMPARE(view->visualRect(model->index(firstNew)).top(), 0);

    QVERIFY(show(0));
    raise("wireDock");
    QTest::qWait(20);
    QVERIFY(!view->onScreen()); // behind the Wire's tab
    QVERIFY(show(call));
    raise("transcriptDock"); // out of sight, the pane was not given the call: it is now
    QCOMPARE(model->rowCount(), int(m_window->currentBundle()->transcript.messages.size()));
    QTRY_VERIFY(view->onScreen());
    QTest::qWait(20);
    QCOMPARE(view->verticalScrollBar()->value(), onTop);
    QCOMPARE(view->visualRect(model->index(firstNew)).top(), 0);
}

void TestTimeline::hiddenToolDetailIsSetWhenShown()
{
    // The Response pane behind the Findings tab leaves its tool detail (tens of kilobytes of result) unset until the
    // tab is raised; then it shows the selected tool's arguments and result, as it would have all along.
    QVERIFY(open(test::writeGenerated(m_dir, QStringLiteral("armed-detail.json"), 8, 1)));
    auto *pane = m_window->findChild<ResponsePane *>(QStringLiteral("responsePane"));
    auto *detail = m_window->findChild<QPlainTextEdit *>(QStringLiteral("toolRunDetail"));
    QVERIFY(pane && detail);
    raise("findingsDock");
    int call = -1;
    for (int i = 1; i < int(m_window->run()->calls.size()) && call < 0; ++i) {
        QVERIFY(show(i));
        if (!m_window->currentBundle()->view->toolRuns.empty())
            call = i;
    }
    QVERIFY(call > 0);
    QTest::qWait(20);
    QVERIFY(!detail->isVisible() || detail->viewport()->visibleRegion().isEmpty());
    // Out of sight, the pane is not even given the calls shown meanwhile.
    QVERIFY(!pane->bundle() || int(pane->bundle()->ordinal) != call);

    raise("responseDock");
    QVERIFY(pane->bundle() && int(pane->bundle()->ordinal) == call);
    const QString name = QString::fromStdString(m_window->currentBundle()->view->toolRuns.front().name);
    QTRY_VERIFY(detail->toPlainText().startsWith(name));
    QCOMPARE(pane->detailText(), detail->toPlainText());

    // Behind the tab again: another call is shown there only once the tab is raised.
    raise("findingsDock");
    QTest::qWait(20);
    const int other = call == 1 ? 2 : 1;
    QVERIFY(show(other));
    QVERIFY(!pane->bundle()); // left behind: it let go of the call it showed
    raise("responseDock");
    QCOMPARE(int(pane->bundle()->ordinal), other);
    if (const auto &runs = m_window->currentBundle()->view->toolRuns; !runs.empty())
        QTRY_VERIFY(detail->toPlainText().startsWith(QString::fromStdString(runs.front().name)));
}

void TestTimeline::transcriptShowsTicketsAndNewMessages()
{
    QVERIFY(open(test::writeGenerated(m_dir, QStringLiteral("armed.json"), 16, 2)));
    raise("transcriptDock");
    auto *pane = m_window->findChild<TranscriptPane *>(QStringLiteral("transcriptPane"));
    auto *view = m_window->findChild<TranscriptView *>(QStringLiteral("transcriptView"));
    QVERIFY(pane && view && view->isVisible());
    // The first call whose messages hold a collapse ticket.
    int call = -1;
    for (int i = 0; i < int(m_window->run()->calls.size()) && call < 0; ++i)
        if (!m_window->run()->calls[std::size_t(i)].collapsedIds.empty())
            call = i;
    QVERIFY(call > 0);
    QVERIFY(show(call));
    const TranscriptModel *model = pane->model();
    const recording::Transcript &t = m_window->currentBundle()->transcript;
    QCOMPARE(model->rowCount(), int(t.messages.size()));
    int tickets = 0, fresh = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
        const QModelIndex i = model->index(r);
        const recording::MessageView &m = t.messages[std::size_t(r)];
        if (i.data(TranscriptModel::CollapsedRole).toBool()) {
            ++tickets;
            QCOMPARE(i.data(TranscriptModel::BodyRole).toString(), QString::fromStdString(m.ticket)); // as sent
            QVERIFY(i.data(TranscriptModel::BodyRole).toString().contains(QStringLiteral("\"collapsed\":true")));
            QCOMPARE(i.data(TranscriptModel::StandingRole).toString(), QString::fromStdString(m.standing));
        }
        fresh += i.data(TranscriptModel::NewRole).toBool() ? 1 : 0;
    }
    QCOMPARE(std::size_t(tickets), m_window->run()->calls[std::size_t(call)].collapsedIds.size());
    QCOMPARE(std::size_t(fresh), t.newCount);
    QVERIFY(fresh > 0 && fresh < model->rowCount());
    QVERIFY2(pane->summaryText().contains(QStringLiteral("%1 new since call %2").arg(fresh).arg(call)),
             qPrintable(pane->summaryText()));
    QVERIFY(pane->summaryText().contains(QStringLiteral("sent as collapse ticket")));

    // Painted: a new message carries the bar at its left edge, an old one does not.
    const QImage image = view->viewport()->grab().toImage();
    const QColor accent = theme::strong(theme::Tone::Accent, view->palette());
    int barred = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
        const QRect rect = view->visualRect(model->index(r));
        if (!view->viewport()->rect().contains(QPoint(3, rect.center().y())))
            continue;
        const bool bar = image.pixelColor(QPoint(3, rect.center().y()) * view->devicePixelRatioF()) == accent;
        const bool isNew = model->index(r).data(TranscriptModel::NewRole).toBool();
        QCOMPARE(bar, isNew);
        barred += bar ? 1 : 0;
    }
    QVERIFY(barred > 0);
    saveShot(m_window->findChild<QDockWidget *>(QStringLiteral("transcriptDock")), "transcript-docked.png");

    // The pictures in the README: each dock floated at a readable size, the transcript at its first ticket.
    if (!qEnvironmentVariableIsEmpty("TRACEFOLD_SCREENSHOT_DIR")) {
        auto *dock = m_window->findChild<QDockWidget *>(QStringLiteral("transcriptDock"));
        dock->setFloating(true);
        dock->resize(760, 620);
        QTest::qWait(50);
        for (int r = 0; r < model->rowCount(); ++r)
            if (model->index(r).data(TranscriptModel::CollapsedRole).toBool()) {
                view->scrollTo(model->index(std::max(0, r - 1)), QAbstractItemView::PositionAtTop);
                break;
            }
        saveShot(dock, "transcript.png");
        dock->setFloating(false);
    }
}

void TestTimeline::transcriptFoldsToolResults()
{
    QVERIFY(open(sample("dev-3-tool-errors.json")));
    raise("transcriptDock");
    QVERIFY(show(3));
    auto *view = m_window->findChild<TranscriptView *>(QStringLiteral("transcriptView"));
    auto *pane = m_window->findChild<TranscriptPane *>(QStringLiteral("transcriptPane"));
    const TranscriptModel *model = pane->model();
    int errorRow = -1;
    for (int r = 0; r < model->rowCount() && errorRow < 0; ++r)
        if (model->index(r).data(TranscriptModel::ToolErrorRole).toBool())
            errorRow = r;
    QVERIFY(errorRow >= 0);
    const QModelIndex error = model->index(errorRow);
    QVERIFY(error.data(TranscriptModel::FoldableRole).toBool());
    QVERIFY(error.data(TranscriptModel::BodyRole).toString().contains(QStringLiteral("ci-api: request timed out")));
    QVERIFY(error.data(TranscriptModel::HeaderRole).toString().contains(QStringLiteral("ci-1")));
    view->scrollTo(error);
    const int folded = view->visualRect(error).height();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(error).center());
    QVERIFY(error.data(TranscriptModel::ExpandedRole).toBool());
    QTRY_VERIFY(view->visualRect(error).height() >= folded);
    // The assistant that asked names its tools; their arguments are folded away until unfolded.
    int asking = -1;
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r)
                .data(TranscriptModel::ToolCallsRole)
                .toStringList()
                .contains(QStringLiteral("fetch_job_log (ci-4)")))
            asking = r;
    QVERIFY(asking >= 0);
    const QModelIndex assistant = model->index(asking);
    QVERIFY(assistant.data(TranscriptModel::FoldableRole).toBool());
    QVERIFY(assistant.data(TranscriptModel::ToolCallsJsonRole)
                .toString()
                .contains(QStringLiteral("\"integration-tests\"")));
    view->scrollTo(assistant);
    const int before = view->visualRect(assistant).height();
    view->toggleFolded(asking);
    QTRY_VERIFY(view->visualRect(assistant).height() > before + 20); // the arguments' lines are shown
    saveShot(m_window->findChild<QDockWidget *>(QStringLiteral("transcriptDock")), "transcript-dev3.png");
}

void TestTimeline::newDocksKeepTheWindowsMinimum()
{
    // Tabbed where a tab bar already is or where there is room (beside the Ledger and the Wire), the two docks hold
    // the window no larger than it was without them (the 1280×720 layout has no height to spare).
    QVERIFY(open(sample("dev-2-conversation.json")));
    const QSize with = m_window->minimumSizeHint();
    for (const char *name : {"timelineDock", "transcriptDock"})
        m_window->findChild<QDockWidget *>(QLatin1String(name))->hide();
    QTest::qWait(20); // the dock layout updates on the next event loop pass
    const QSize without = m_window->minimumSizeHint();
    QVERIFY2(with.height() <= without.height() && with.width() <= without.width(),
             qPrintable(QStringLiteral("%1x%2 with, %3x%4 without")
                            .arg(with.width())
                            .arg(with.height())
                            .arg(without.width())
                            .arg(without.height())));
}

QTEST_MAIN(TestTimeline)
#include "tst_timeline.moc"
