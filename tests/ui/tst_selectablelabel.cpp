// SelectableLabel: selectable while the mouse is over it, a plain label (no text document) once a text is set while
// the mouse is elsewhere; the same pixels either way, markup never interpreted.

#include "ui/widgets/selectablelabel.h"

#include <QApplication>
#include <QEnterEvent>
#include <QImage>
#include <QTest>

using namespace tf::ui;

namespace {

void enter(QWidget *w)
{
    const QPointF at(2, 2);
    QEnterEvent event(at, w->mapTo(w->window(), at), w->mapToGlobal(at));
    QApplication::sendEvent(w, &event);
}

void leave(QWidget *w)
{
    QEvent event(QEvent::Leave);
    QApplication::sendEvent(w, &event);
}

} // namespace

class TestSelectableLabel : public QObject
{
    Q_OBJECT

private slots:
    void selectableOnlyUnderTheMouse();
    void sameTextKeepsTheSelection();
    void drawsAsASelectableLabel_data();
    void drawsAsASelectableLabel();
};

void TestSelectableLabel::selectableOnlyUnderTheMouse()
{
    QWidget window;
    auto *label = new SelectableLabel(&window);
    window.resize(300, 60);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    label->setText(QStringLiteral("read 4,197 · write 0"));
    QCOMPARE(label->textInteractionFlags(), Qt::NoTextInteraction);
    QCOMPARE(label->cursor().shape(), Qt::IBeamCursor);

    enter(label); // the mouse comes over it: a selection can start
    QVERIFY(label->textInteractionFlags() & Qt::TextSelectableByMouse);
    label->setSelection(5, 5);
    QCOMPARE(label->selectedText(), QStringLiteral("4,197"));

    // While the mouse is over it, a new text stays selectable; once it is elsewhere, a new text is plain again.
    label->setText(QStringLiteral("read 2 · write 0"));
    QVERIFY(label->textInteractionFlags() & Qt::TextSelectableByMouse);
    leave(label);
    QVERIFY(!label->underMouse());
    label->setText(QStringLiteral("read 0 · write 8,000"));
    QCOMPARE(label->textInteractionFlags(), Qt::NoTextInteraction);
    QCOMPARE(label->text(), QStringLiteral("read 0 · write 8,000"));
    QCOMPARE(label->textFormat(), Qt::PlainText);
}

void TestSelectableLabel::sameTextKeepsTheSelection()
{
    SelectableLabel label;
    label.setText(QStringLiteral("changed"));
    enter(&label);
    label.setSelection(0, 4);
    label.setText(QStringLiteral("changed")); // the next call says the same
    QVERIFY(label.textInteractionFlags() & Qt::TextSelectableByMouse);
    QCOMPARE(label.selectedText(), QStringLiteral("chan"));
}

void TestSelectableLabel::drawsAsASelectableLabel_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("wrap");
    QTest::newRow("short") << QStringLiteral("unchanged") << false;
    QTest::newRow("markup stays text") << QStringLiteral("<b>bold</b> &amp; <a href=\"x\">link</a>") << false;
    QTest::newRow("wrapped reason")
        << QStringLiteral("tools changed: a schema hash or the name list moved; everything after the tools is "
                          "rewritten; the system block changed too (the findings piece changed)")
        << true;
}

void TestSelectableLabel::drawsAsASelectableLabel()
{
    // The plain label and the selectable one (a QLabel selectable all along) draw the same pixels at the same height.
    QFETCH(QString, text);
    QFETCH(bool, wrap);
    QLabel reference;
    reference.setTextFormat(Qt::PlainText);
    reference.setTextInteractionFlags(Qt::TextSelectableByMouse);
    SelectableLabel label;
    for (QLabel *l : {&reference, static_cast<QLabel *>(&label)}) {
        l->setWordWrap(wrap);
        l->setText(text);
    }
    label.setText(text + QStringLiteral(" ")); // set while the mouse is elsewhere: the plain path
    label.setText(text);
    QCOMPARE(label.textInteractionFlags(), Qt::NoTextInteraction);
    QCOMPARE(label.text(), text);
    QCOMPARE(label.heightForWidth(240), reference.heightForWidth(240));
    const QSize size(240, wrap ? reference.heightForWidth(240) : reference.sizeHint().height());
    reference.resize(size);
    label.resize(size);
    QCOMPARE(label.grab().toImage(), reference.grab().toImage());
}

QTEST_MAIN(TestSelectableLabel)
#include "tst_selectablelabel.moc"
