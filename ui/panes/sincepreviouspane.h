#pragma once

#include "ui/services/callbundle.h"

#include "core/text/linediff.h"

#include <QWidget>

#include <set>
#include <vector>

namespace tf::ui {

class AnnotatedTextView;
class ElidedLabel;
class FactGrid;
class GlyphLabel;
class SelectableLabel;

// What changed since the previous call: whether the cached prefix could be reused and why (the core's cache facts),
// then a line diff of the findings piece.
class SincePreviousPane : public QWidget
{
    Q_OBJECT

public:
    explicit SincePreviousPane(QWidget *parent = nullptr);
    void setBundle(const BundleHandle &bundle);

    AnnotatedTextView *diffView() const { return m_diff; }
    QString reasonText() const;

private:
    // Unchanged lines shown either side of a change.
    static constexpr std::size_t kContextLines = 3;

    // The piece diff of m_bundle, its unchanged runs folded but for those in m_unfolded.
    void renderDiff();
    // No diff shown, and no rows of one.
    void clearDiff();

    BundleHandle m_bundle;
    std::vector<text::DiffRow> m_rows; // what each block of the diff view shows
    std::set<std::size_t> m_unfolded;  // the folds opened at this call (DiffRow::first)
    GlyphLabel *m_glyph = nullptr;
    ElidedLabel *m_verdict = nullptr;
    SelectableLabel *m_reason = nullptr;
    SelectableLabel *m_provider = nullptr;
    SelectableLabel *m_tokens = nullptr;
    SelectableLabel *m_system = nullptr;
    SelectableLabel *m_tools = nullptr;
    SelectableLabel *m_basis = nullptr;
    SelectableLabel *m_gap = nullptr;
    SelectableLabel *m_markers = nullptr;
    ElidedLabel *m_diffTitle = nullptr;
    FactGrid *m_facts = nullptr;
    AnnotatedTextView *m_diff = nullptr;
};

} // namespace tf::ui
