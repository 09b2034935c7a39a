// The strip chart on its own: geometry, clicks and keys move the cursor, the selected call is drawn.

#include "uitesthelpers.h"

#include "ui/widgets/stripchart.h"

#include <QImage>
#include <QSignalSpy>

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

QTEST_MAIN(TestStripChart)
#include "tst_stripchart.moc"
