// The strip chart on its own: geometry, clicks and keys move the cursor, the selected call is drawn.

#include "uitesthelpers.h"

#include "ui/widgets/stripchart.h"

#include <QApplication>
#include <QImage>
#include <QSignalSpy>
#include <QWheelEvent>

using namespace tf;
using namespace tf::ui;

class TestStripChart : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void geometry();
    void clickAndDrag();
    void keys();
    void selectedCallIsDrawn();
    void emptyRun();
    void wheelZoomsAboutTheCursor();
    void lastAxisLabelIsInside();

private:
    QTemporaryDir m_dir;
    RunHandle m_run;
};

void TestStripChart::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_run = test::loadOrFail(test::writeGenerated(m_dir, QStringLiteral("g.json"), 20, 2));
    QVERIFY(m_run);
}

void TestStripChart::geometry()
{
    StripChart chart;
    chart.resize(900, 130);
    chart.setRun(m_run);
    for (int i = 0; i < int(m_run->calls.size()); ++i)
        QCOMPARE(chart.callAt(chart.slotCentre(i)), i);
    QCOMPARE(chart.callAt(-100), 0);
    QCOMPARE(chart.callAt(10000), int(m_run->calls.size()) - 1);
}

void TestStripChart::clickAndDrag()
{
    StripChart chart;
    chart.resize(900, 130);
    chart.setRun(m_run);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QSignalSpy activated(&chart, &StripChart::callActivated);
    QTest::mouseClick(&chart, Qt::LeftButton, {}, QPoint(int(chart.slotCentre(7)), 60));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toInt(), 7);
    QCOMPARE(chart.currentCall(), 7);
    QTest::mousePress(&chart, Qt::LeftButton, {}, QPoint(int(chart.slotCentre(2)), 60));
    QTest::mouseMove(&chart, QPoint(int(chart.slotCentre(4)), 60));
    QTest::mouseRelease(&chart, Qt::LeftButton, {}, QPoint(int(chart.slotCentre(4)), 60));
    QTRY_COMPARE(chart.currentCall(), 4);
}

void TestStripChart::keys()
{
    StripChart chart;
    chart.resize(900, 130);
    chart.setRun(m_run);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.setFocus();
    QSignalSpy activated(&chart, &StripChart::callActivated);
    QTest::keyClick(&chart, Qt::Key_Right);
    QCOMPARE(chart.currentCall(), 1);
    QTest::keyClick(&chart, Qt::Key_End);
    QCOMPARE(chart.currentCall(), int(m_run->calls.size()) - 1);
    QTest::keyClick(&chart, Qt::Key_Right);
    QCOMPARE(chart.currentCall(), int(m_run->calls.size()) - 1);
    QTest::keyClick(&chart, Qt::Key_Home);
    QCOMPARE(chart.currentCall(), 0);
    QTest::keyClick(&chart, Qt::Key_Left);
    QCOMPARE(chart.currentCall(), 0);
    QCOMPARE(activated.count(), 5);
}

void TestStripChart::selectedCallIsDrawn()
{
    StripChart chart;
    chart.resize(900, 130);
    chart.setRun(m_run);
    const auto columnDiffers = [&](int call) {
        chart.setCurrentCall(call);
        const QImage image = chart.grab().toImage();
        chart.setCurrentCall(call == 0 ? 1 : 0);
        const QImage other = chart.grab().toImage();
        const int x = int(chart.slotCentre(call));
        int differing = 0;
        for (int y = 0; y < image.height(); ++y)
            differing += image.pixel(x + 1, y) != other.pixel(x + 1, y) ? 1 : 0;
        return differing;
    };
    QVERIFY(columnDiffers(5) > 20);
}

void TestStripChart::emptyRun()
{
    StripChart chart;
    chart.resize(400, 100);
    chart.setRun(nullptr);
    QCOMPARE(chart.callAt(50), -1);
    QCOMPARE(chart.currentCall(), -1);
    chart.grab(); // paints without a run
}

void TestStripChart::wheelZoomsAboutTheCursor()
{
    QTemporaryDir dir;
    const RunHandle run = test::loadOrFail(test::writeGenerated(dir, QStringLiteral("g200.json"), 200, 4));
    QVERIFY(run);
    StripChart chart;
    chart.resize(900, 130);
    chart.setRun(run);
    QCOMPARE(chart.visibleCallCount(), 200);
    const qreal x = chart.slotCentre(120);
    const auto wheel = [&](qreal at, int delta, Qt::KeyboardModifiers modifiers = {}) {
        QWheelEvent event(QPointF(at, 60), chart.mapToGlobal(QPointF(at, 60)), QPoint(), QPoint(0, delta), Qt::NoButton,
                          modifiers, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&chart, &event);
    };
    wheel(x, 120 * 6); // six notches in
    QVERIFY2(chart.visibleCallCount() < 200 * 0.3, qPrintable(QString::number(chart.visibleCallCount())));
    QCOMPARE(chart.callAt(x), 120); // the call under the cursor stays under it
    QVERIFY(chart.firstVisibleCall() > 0);
    // Geometry holds in the window: every visible call is found at its slot.
    for (int i = chart.firstVisibleCall(); i < chart.firstVisibleCall() + chart.visibleCallCount(); ++i)
        QCOMPARE(chart.callAt(chart.slotCentre(i)), i);
    // Shift+wheel pans; selecting a call outside the window brings it in; 0 shows every call.
    const int first = chart.firstVisibleCall();
    wheel(x, -120, Qt::ShiftModifier);
    QVERIFY(chart.firstVisibleCall() > first);
    chart.setCurrentCall(3);
    QVERIFY(chart.firstVisibleCall() <= 3 && 3 < chart.firstVisibleCall() + chart.visibleCallCount());
    chart.setFocus();
    QTest::keyClick(&chart, Qt::Key_0);
    QCOMPARE(chart.visibleCallCount(), 200);
    QCOMPARE(chart.firstVisibleCall(), 0);
    wheel(x, -120 * 10); // zooming out past the run stops at the run
    QCOMPARE(chart.visibleCallCount(), 200);
    chart.grab(); // paints zoomed and not
}

void TestStripChart::lastAxisLabelIsInside()
{
    StripChart chart;
    chart.resize(900, 130);
    chart.setRun(m_run);
    const int last = int(m_run->calls.size()) - 1;
    QVERIFY(chart.tickLabelRect(last).right() <= chart.width());
    QVERIFY(chart.tickLabelRect(0).left() >= 0);
    // Its text fits the rect it is drawn in.
    QFont small = chart.font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    QVERIFY(QFontMetricsF(small).horizontalAdvance(QString::number(last + 1)) <= chart.tickLabelRect(last).width());
}

QTEST_MAIN(TestStripChart)
#include "tst_stripchart.moc"
