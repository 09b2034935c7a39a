#pragma once

#include "ui/services/callbundle.h"

#include <QAbstractTableModel>

namespace tf::ui {

// Each verified part of the selected call (system text and pieces, messages, tool names and schemas, basis, ...)
// with its badge and the one-sentence reason the core gives.
class ReceiptModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        PartColumn,
        StatusColumn,
        ReasonColumn,
        ColumnCount
    };
    enum Role
    {
        BadgeRole = Qt::UserRole + 1, // int (recording::Badge)
        GlyphRole,                    // int (Glyph)
        PartIdRole,                   // QString: the stable part id
    };
    Q_ENUM(Column)

    explicit ReceiptModel(QObject *parent = nullptr);
    void setBundle(const BundleHandle &bundle);
    const BundleHandle &bundle() const { return m_bundle; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    BundleHandle m_bundle;
};
} // namespace tf::ui
