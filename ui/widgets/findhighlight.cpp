#include "ui/widgets/findhighlight.h"

#include "ui/widgets/annotatedtextview.h"

#include "core/report/runsearch.h"

#include <QPlainTextEdit>
#include <QTextBlock>

namespace tf::ui {

int highlightMatches(QPlainTextEdit *edit, const FindQuery &query, int current)
{
    QList<QTextEdit::ExtraSelection> marks;
    if (query.isEmpty()) {
        edit->setExtraSelections(marks);
        return 0;
    }
    // A lone surrogate is shown as U+FFFD: three bytes of UTF-8 and one unit, as in the recording's WTF-8. A view that
    // shows long lines in parts is searched in its text as set, and the matches are placed where that text is shown.
    const auto *view = qobject_cast<const AnnotatedTextView *>(edit);
    const AnnotatedTextView *annotated = view && view->showsText() ? view : nullptr;
    const auto shownAt = [annotated](std::size_t position) {
        return annotated ? annotated->displayPosition(int(position)) : int(position);
    };
    const auto shownEnd = [annotated](std::size_t position) {
        return annotated ? annotated->displayEndPosition(int(position)) : int(position);
    };
    const QByteArray text = (annotated ? annotated->text() : edit->toPlainText()).toUtf8();
    const QByteArray needle = query.text.toUtf8();
    const std::vector<report::RangeU16> ranges =
        report::matchRangesU16(std::string_view(text.constData(), std::size_t(text.size())),
                               std::string_view(needle.constData(), std::size_t(needle.size())), query.caseInsensitive);
    // The find colours every browser and editor uses (yellow, the current one orange), with dark text on them in a
    // light and a dark palette alike; no pane's tones are yellow, so a match never reads as a verdict.
    QTextCharFormat all;
    all.setBackground(QColor(0xFF, 0xE8, 0x5C));
    all.setForeground(QColor(0x1A, 0x1A, 0x1A));
    QTextCharFormat strong = all;
    strong.setBackground(QColor(0xFF, 0x9F, 0x1C));
    strong.setFontUnderline(true);
    const int focus = ranges.empty() ? -1 : qMin(current, int(ranges.size()) - 1);
    for (int i = 0; i < int(ranges.size()); ++i) {
        QTextEdit::ExtraSelection mark;
        mark.cursor = QTextCursor(edit->document());
        mark.cursor.setPosition(shownAt(ranges[std::size_t(i)].beginU16));
        mark.cursor.setPosition(shownEnd(ranges[std::size_t(i)].beginU16 + ranges[std::size_t(i)].lengthU16),
                                QTextCursor::KeepAnchor);
        mark.format = i == focus ? strong : all;
        marks.append(mark);
    }
    edit->setExtraSelections(marks);
    if (focus >= 0) {
        QTextCursor at(edit->document());
        at.setPosition(shownAt(ranges[std::size_t(focus)].beginU16));
        edit->setTextCursor(at);
        edit->centerCursor();
    }
    return int(ranges.size());
}

} // namespace tf::ui
