#pragma once

#include "core/recording/gap.h"

#include <QAbstractTableModel>

#include <vector>

namespace tf::ui {

// The gaps of a view (what it cannot prove) or of the run: name, kind, the receipt fields covered, why.
class GapModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        GapColumn,
        KindColumn,
        WhyColumn,
        FieldsColumn,
        ColumnCount
    };
    enum Role
    {
        KindRole = Qt::UserRole + 1, // int (recording::Gap::Kind)
    };
    Q_ENUM(Column)

    explicit GapModel(QObject *parent = nullptr);
    void setGaps(std::vector<recording::Gap> gaps);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<recording::Gap> m_gaps;
};

} // namespace tf::ui
