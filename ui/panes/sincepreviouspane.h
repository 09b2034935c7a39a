#pragma once

#include "ui/services/callbundle.h"

#include <QWidget>

class QLabel;

namespace tf::ui {

class AnnotatedTextView;
class ElidedLabel;
class FactGrid;
class GlyphLabel;

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
    GlyphLabel *m_glyph = nullptr;
    ElidedLabel *m_verdict = nullptr;
    QLabel *m_reason = nullptr;
    QLabel *m_provider = nullptr;
    QLabel *m_tokens = nullptr;
    QLabel *m_system = nullptr;
    QLabel *m_tools = nullptr;
    QLabel *m_basis = nullptr;
    QLabel *m_gap = nullptr;
    QLabel *m_markers = nullptr;
    ElidedLabel *m_diffTitle = nullptr;
    FactGrid *m_facts = nullptr;
    AnnotatedTextView *m_diff = nullptr;
};

} // namespace tf::ui
