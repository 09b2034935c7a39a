#pragma once

#include <QString>

class QPlainTextEdit;

namespace tf::ui {

// What the run search looks for, as the panes that show its matches need it.
struct FindQuery
{
    QString text;
    bool caseInsensitive = false;
    bool isEmpty() const { return text.isEmpty(); }
    bool operator==(const FindQuery &) const = default;
};

// Marks every occurrence of `query` in a text view (extra selections, so the text stays plain and its own formats
// stay), by the core's rule (report::matchRangesU16). The `current` occurrence (0-based) is marked stronger and
// scrolled into view; past the last one, the last is. Returns how many occurrences the text holds. An empty query
// clears the marks.
int highlightMatches(QPlainTextEdit *edit, const FindQuery &query, int current = -1);

} // namespace tf::ui
