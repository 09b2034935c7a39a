#pragma once

#include "ui/services/callbundle.h"

#include <QAbstractItemModel>
#include <QList>

namespace tf::ui {

// A run of one line's text and where it came from (findings::SpanOrigin), in UTF-16 units within the line.
struct SpanRange
{
    int begin = 0;
    int end = 0;
    int origin = 0; // findings::SpanOrigin
    bool operator==(const SpanRange &) const = default;
};

// The findings piece of the selected call as its structure: top-level rows are the sections (header, facts, ...,
// undeclared, ask), their children the lines exactly as they are in the piece text, heading first.
class PieceModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column
    {
        TextColumn,
        KindColumn,
        UnitsColumn,
        RowsColumn,
        ColumnCount
    };
    enum Role
    {
        SectionKindRole = Qt::UserRole + 1, // int (findings::SectionKind), on sections and lines
        LineKindRole,                       // int (findings::LineKind), lines only
        SpansRole,                          // QList<SpanRange>, lines only
        OffsetRole,                         // int: UTF-16 offset of the line (or section) in the piece text
        LengthRole,                         // int: UTF-16 units
        OverflowRole,                       // bool: the line carries an overflow note (clip or "+K more")
        ClippedUnitsRole,                   // int
        ClipCapRole,                        // int: the cap that clipped it
        HiddenLinesRole,                    // int: K of "+K more"
        RowIndicesRole,                     // QList<int>: ledger rows the line quotes
        TotalLinesRole,                     // int, sections: content lines before the cap
        OverflowToolTipRole,                // QString (plain): what the overflow note means, naming its cap
        LoneSurrogatesRole,                 // QList<QPoint>: (position in the line, code unit) of each lone surrogate
    };
    Q_ENUM(Column)

    explicit PieceModel(QObject *parent = nullptr);

    void setBundle(const BundleHandle &bundle);
    const findings::FindingsPiece *piece() const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The section's display name ("facts", "unsettled by absence", ...).
    static QString sectionName(int sectionKind);
    // Whether a line carries an overflow note (a clip or "+K more": OverflowRole), and plain text explaining it, or
    // empty when it has none.
    static bool hasOverflow(const findings::PieceLine &line);
    static QString overflowExplanation(const findings::PieceLine &line);

private:
    BundleHandle m_bundle;
    QList<int> m_sectionOffsets;
    QList<QList<int>> m_lineOffsets;
};

} // namespace tf::ui

Q_DECLARE_METATYPE(tf::ui::SpanRange)
