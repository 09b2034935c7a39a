// ui::AnnotatedTextView shows a line longer than kLongLineUnits in parts (the editor lays a line out whole, and a tool
// result is often one line of a hundred thousand characters), and everything it takes or gives is of the text as
// set: text(), a copy, the find marks, tooltips' positions, line numbers (the gutter, revealBlock, blockActivated).

#include "ui/widgets/annotatedtextview.h"
#include "ui/widgets/findhighlight.h"

#include <QApplication>
#include <QClipboard>
#include <QMimeData>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <QTextBlock>

using tf::ui::AnnotatedTextView;

namespace {

// A tool result as the Wire shows one: JSON on a single line, with non-BMP characters on the way.
QString longLine(int units)
{
    QString line;
    for (int i = 0; line.size() < units; ++i)
        line += QStringLiteral("{\"port\":\"fc1/%1\",\"log\":\"queue reset \\\"q\\\" état 😀\"},").arg(i);
    return line;
}

} // namespace

class TestAnnotatedTextView : public QObject
{
    Q_OBJECT

private slots:
    void longLineIsShownInParts();
    void positionsAndLinesAreThoseOfTheText();
    void copyAndFindSeeTheTextAsSet();
    void lineEndsAsTheEditorReadsThem();
    void formatsGoOnTheLinesTheyCover();
    void aClickActivatesItsLine();
    void textColourIsTheTextsOwn();
};

void TestAnnotatedTextView::longLineIsShownInParts()
{
    AnnotatedTextView view;
    const QString text = QStringLiteral("head\n") + longLine(100000) + QStringLiteral("\ntail");
    view.setAnnotatedText(text);
    QCOMPARE(view.text(), text);
    QVERIFY(view.document()->blockCount() > 100000 / AnnotatedTextView::kLongLineUnits);
    // Every part is within the limit, none ends inside a surrogate pair, and the parts are the line.
    QString joined;
    for (QTextBlock b = view.document()->begin(); b.isValid(); b = b.next()) {
        QVERIFY(b.text().size() <= AnnotatedTextView::kLongLineUnits);
        QVERIFY(b.text().isEmpty() || !b.text().back().isHighSurrogate());
        if (b.blockNumber() == 0 || b.blockNumber() == view.document()->blockCount() - 1)
            continue;
        joined += b.text();
    }
    QCOMPARE(joined, text.section(QLatin1Char('\n'), 1, 1));
    // Lines within the limit are left whole.
    view.setAnnotatedText(QStringLiteral("a\nb"));
    QCOMPARE(view.document()->blockCount(), 2);
    QCOMPARE(view.displayPosition(2), 2);
}

void TestAnnotatedTextView::positionsAndLinesAreThoseOfTheText()
{
    AnnotatedTextView view;
    view.resize(600, 300);
    const QString line = longLine(10000);
    const QString text = line + QStringLiteral("\nsecond\n") + line;
    // A range at the end of the first long line and a background on the third line.
    QTextCharFormat red;
    red.setForeground(Qt::red);
    const int last = int(line.size()) - 5;
    AnnotatedTextView::BlockStyle style;
    style.background = Qt::yellow;
    view.setAnnotatedText(text, {{last, 5, red, QStringLiteral("the end")}}, {{2, style}});
    view.setGutter({QStringLiteral("L1"), QStringLiteral("L2"), QStringLiteral("L3")});
    QCOMPARE(view.toolTipAt(last + 2), QStringLiteral("the end"));
    // The range's characters are where displayPosition says.
    QTextCursor c(view.document());
    c.setPosition(view.displayPosition(last));
    c.setPosition(view.displayPosition(last + 5), QTextCursor::KeepAnchor);
    QCOMPARE(c.selectedText(), line.right(5));
    const QTextBlock shown = view.document()->findBlock(view.displayPosition(last));
    QVERIFY(!shown.layout()->formats().isEmpty());
    // Line 2 ("second") is the document's line after the first line's parts; putting the cursor there says line 1.
    QSignalSpy activated(&view, &AnnotatedTextView::blockActivated);
    const int secondAt = view.displayPosition(int(line.size()) + 1);
    QCOMPARE(view.document()->findBlock(secondAt).text(), QStringLiteral("second"));
    QTextCursor into(view.document());
    into.setPosition(secondAt + 2);
    view.setTextCursor(into);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.takeFirst().at(0).toInt(), 1);
    // A position in a later part of the third line is still line 2.
    QTextCursor third(view.document());
    third.setPosition(view.displayPosition(int(text.size()) - 3));
    view.setTextCursor(third);
    QCOMPARE(activated.takeFirst().at(0).toInt(), 2);
    // A line revealed gets the cursor at its first part when the view takes focus.
    view.revealBlock(2);
    QFocusEvent focusIn(QEvent::FocusIn);
    QCoreApplication::sendEvent(&view, &focusIn);
    QCOMPARE(view.textCursor().position(), view.displayPosition(int(line.size()) + 8));
}

void TestAnnotatedTextView::copyAndFindSeeTheTextAsSet()
{
    AnnotatedTextView view;
    const QString line = longLine(30000);
    view.setAnnotatedText(line);
    QVERIFY(view.document()->blockCount() > 1);
    view.selectAll();
    view.copy();
    QCOMPARE(QApplication::clipboard()->text(), line);
    // A part of the text across a break is copied as it is in the text.
    const int breakAt = view.document()->firstBlock().length() - 1; // the first part's end, as a text position
    QTextCursor across(view.document());
    across.setPosition(view.displayPosition(breakAt - 4));
    across.setPosition(view.displayPosition(breakAt + 4), QTextCursor::KeepAnchor);
    view.setTextCursor(across);
    view.copy();
    QCOMPARE(QApplication::clipboard()->text(), line.mid(breakAt - 4, 8));
    // Find: an occurrence across a break is found, and each mark covers its occurrence.
    const QString needle = line.mid(breakAt - 3, 6);
    const int found = tf::ui::highlightMatches(&view, {needle, false});
    QCOMPARE(found, int(line.count(needle)));
    bool spanning = false;
    for (const QTextEdit::ExtraSelection &mark : view.extraSelections()) {
        const QString shown = mark.cursor.selectedText();
        QCOMPARE(QString(shown).remove(QChar::ParagraphSeparator), needle);
        spanning = spanning || shown.contains(QChar::ParagraphSeparator);
    }
    QVERIFY(spanning);
}

void TestAnnotatedTextView::lineEndsAsTheEditorReadsThem()
{
    // The editor makes "\r\n" one line end and '\r' another: positions and lines are still those of the text as set.
    AnnotatedTextView view;
    view.setAnnotatedText(QStringLiteral("ok\r\nfoo"));
    QCOMPARE(tf::ui::highlightMatches(&view, {QStringLiteral("foo"), false}), 1);
    QCOMPARE(view.extraSelections().front().cursor.selectedText(), QStringLiteral("foo"));
    view.selectAll();
    view.copy();
    QCOMPARE(QApplication::clipboard()->text(), QStringLiteral("ok\r\nfoo")); // as recorded, not "ok\nfoo"

    const QString line = longLine(6000);
    const QString text = QStringLiteral("a\r\nb\rc\r\n") + line + QStringLiteral("\r\nlast");
    AnnotatedTextView::BlockStyle style;
    style.marker = Qt::red;
    view.setAnnotatedText(text, {}, {{4, style}});
    QVERIFY(view.document()->blockCount() > 5);
    // Line 4 ("last") is the document's line after the long line's parts.
    const int lastAt = int(text.size()) - 4;
    QCOMPARE(view.document()->findBlock(view.displayPosition(lastAt)).text(), QStringLiteral("last"));
    QSignalSpy activated(&view, &AnnotatedTextView::blockActivated);
    QTextCursor into(view.document());
    into.setPosition(view.displayPosition(lastAt) + 1);
    view.setTextCursor(into);
    QCOMPARE(activated.takeFirst().at(0).toInt(), 4);
    // The needle across the long line's first break, and the text after it, are found where they are.
    QCOMPARE(tf::ui::highlightMatches(&view, {QStringLiteral("last"), false}), 1);
    QCOMPARE(view.extraSelections().front().cursor.selectedText(), QStringLiteral("last"));
    view.selectAll();
    view.copy();
    QCOMPARE(QApplication::clipboard()->text(), text);
}

void TestAnnotatedTextView::formatsGoOnTheLinesTheyCover()
{
    AnnotatedTextView view;
    const QString line = longLine(5000); // three parts
    const QString text = QStringLiteral("alpha\r\nbeta\ngamma\n") + line;
    QTextCharFormat red;
    red.setForeground(Qt::red);
    QTextCharFormat bold;
    bold.setFontWeight(QFont::Bold);
    AnnotatedTextView::BlockStyle style;
    style.format = bold;
    style.hasFormat = true;
    // From "pha" over the "\r\n" and all of "beta" to "ga"; and the long line styled whole.
    view.setAnnotatedText(text, {{2, 12, red, QString()}}, {{3, style}});
    const auto formatsOf = [&](int block) {
        QList<QPair<int, int>> spans;
        for (const QTextLayout::FormatRange &r : view.document()->findBlockByNumber(block).layout()->formats())
            spans.append({r.start, r.length});
        return spans;
    };
    using Spans = QList<QPair<int, int>>;
    QCOMPARE(formatsOf(0), (Spans{{2, 3}}));
    QCOMPARE(formatsOf(1), (Spans{{0, 4}}));
    QCOMPARE(formatsOf(2), (Spans{{0, 2}}));
    QVERIFY(view.document()->blockCount() >= 6);
    for (int part = 3; part < view.document()->blockCount(); ++part) {
        const QTextBlock block = view.document()->findBlockByNumber(part);
        QCOMPARE(formatsOf(part), (Spans{{0, int(block.text().size())}}));
        QCOMPARE(block.layout()->formats().constFirst().format.fontWeight(), int(QFont::Bold));
    }
}

void TestAnnotatedTextView::aClickActivatesItsLine()
{
    AnnotatedTextView view;
    view.resize(400, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setAnnotatedText(QStringLiteral("first line\nsecond line\nthird line"));
    QSignalSpy activated(&view, &AnnotatedTextView::blockActivated);
    const auto startOf = [&](int block) {
        return view.cursorRect(QTextCursor(view.document()->findBlockByNumber(block))).center();
    };
    // The cursor is at the start of the first line already: clicking there moves nothing, and still activates it.
    QCOMPARE(view.textCursor().position(), 0);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, startOf(0));
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.takeFirst().at(0).toInt(), 0);
    // Another line: once, on release.
    QTest::mousePress(view.viewport(), Qt::LeftButton, {}, startOf(2));
    QCOMPARE(activated.size(), 0);
    QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, startOf(2));
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.takeFirst().at(0).toInt(), 2);
    // The same place again: activated again.
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, startOf(2));
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.takeFirst().at(0).toInt(), 2);
    // A drag selects and activates nothing.
    QTest::mousePress(view.viewport(), Qt::LeftButton, {}, startOf(0));
    QTest::mouseMove(view.viewport(), startOf(1));
    QTest::mouseRelease(view.viewport(), Qt::LeftButton, {}, startOf(1));
    QVERIFY(view.textCursor().hasSelection());
    QCOMPARE(activated.size(), 0);
    // From the keyboard, moving the cursor onto a line activates it.
    view.setFocus();
    QTest::keyClick(&view, Qt::Key_Down);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.takeFirst().at(0).toInt(), 2);
    // A press whose release goes elsewhere (a drag out of the view) leaves the keyboard activating lines.
    QTest::mousePress(view.viewport(), Qt::LeftButton, {}, startOf(1));
    QTest::keyClick(&view, Qt::Key_Down);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.takeFirst().at(0).toInt(), 2);
    // placeCursor moves the cursor without activating or scrolling.
    view.placeCursor(0);
    QCOMPARE(view.textCursor().blockNumber(), 0);
    QCOMPARE(activated.size(), 0);
}

void TestAnnotatedTextView::textColourIsTheTextsOwn()
{
    AnnotatedTextView view;
    view.setAnnotatedText(QStringLiteral("one\ntwo\nthree"));
    // A selection made backwards: the cursor's format is then the text's before it, which must not matter.
    QTextCursor select(view.document());
    select.movePosition(QTextCursor::End);
    select.movePosition(QTextCursor::Start, QTextCursor::KeepAnchor);
    view.setTextCursor(select);
    view.setTextColour(Qt::red);
    view.setAnnotatedText(QStringLiteral("four\nfive"));
    for (QTextBlock b = view.document()->begin(); b.isValid(); b = b.next())
        QCOMPARE(b.begin().fragment().charFormat().foreground().color(), QColor(Qt::red));
    QVERIFY(view.palette().color(QPalette::Text) != QColor(Qt::red)); // the palette (gutter, scroll bars) untouched
    // Changed again (a palette switch): the next text takes the new colour; back to none, the palette's.
    view.setTextColour(Qt::blue);
    view.setAnnotatedText(QStringLiteral("six"));
    QCOMPARE(view.document()->begin().begin().fragment().charFormat().foreground().color(), QColor(Qt::blue));
    view.setTextColour(QColor());
    view.setAnnotatedText(QStringLiteral("seven"));
    QCOMPARE(view.document()->begin().begin().fragment().charFormat().foreground().style(), Qt::NoBrush);
}

QTEST_MAIN(TestAnnotatedTextView)
#include "tst_annotatedtextview.moc"
