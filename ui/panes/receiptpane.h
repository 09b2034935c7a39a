#pragma once

#include "ui/services/callbundle.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace tf::ui {

class ColumnFitter;
class ElidedLabel;
class GapModel;
class GlyphLabel;
class ReceiptModel;

// How each part of the selected call checks against the recording's receipt, with the reason; below, the gaps of
// the call (what its view cannot prove) and the core's notes.
class ReceiptPane : public QWidget
{
    Q_OBJECT

public:
    explicit ReceiptPane(QWidget *parent = nullptr);
    void setBundle(const BundleHandle &bundle);

    ReceiptModel *model() const { return m_model; }
    GapModel *gapModel() const { return m_gaps; }
    QTableView *view() const { return m_view; }

private:
    ReceiptModel *m_model = nullptr;
    GapModel *m_gaps = nullptr;
    GlyphLabel *m_glyph = nullptr;
    ElidedLabel *m_state = nullptr;
    ElidedLabel *m_counts = nullptr;
    QTableView *m_view = nullptr;
    QTableView *m_gapView = nullptr;
    QLabel *m_notes = nullptr;
    ColumnFitter *m_fitter = nullptr;
    ColumnFitter *m_gapFitter = nullptr;
};

} // namespace tf::ui
