#include "ui/models/piecemodel.h"

#include "ui/services/qtstrings.h"

#include <QPoint>

namespace tf::ui {

using findings::LineKind;
using findings::SectionKind;

namespace {

// spec/findings.md §1.1 FINDINGS_PIECE_LIMITS, named when an overflow note is explained.
constexpr int kBucketLines = 64;
constexpr int kLineChars = 240;
constexpr int kIdChars = 64;
constexpr int kListedIds = 32;

constexpr quintptr kSectionId = 0;

} // namespace

PieceModel::PieceModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

const findings::FindingsPiece *PieceModel::piece() const
{
    return m_bundle && m_bundle->view->piece ? &*m_bundle->view->piece : nullptr;
}

void PieceModel::setBundle(const BundleHandle &bundle)
{
    beginResetModel();
    m_bundle = bundle;
    m_sectionOffsets.clear();
    m_lineOffsets.clear();
    if (const findings::FindingsPiece *p = piece()) {
        // text == join("\n\n", join("\n", lines)) (findingspiece.h)
        int offset = 0;
        for (std::size_t s = 0; s < p->sections.size(); ++s) {
            if (s > 0)
                offset += 2;
            m_sectionOffsets.append(offset);
            QList<int> lines;
            const auto &sec = p->sections[s];
            for (std::size_t l = 0; l < sec.lines.size(); ++l) {
                if (l > 0)
                    offset += 1;
                lines.append(offset);
                offset += int(sec.lines[l].text.size());
            }
            m_lineOffsets.append(lines);
        }
    }
    endResetModel();
}

QModelIndex PieceModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, kSectionId);
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex PieceModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == kSectionId)
        return {};
    return createIndex(int(child.internalId() - 1), 0, kSectionId);
}

int PieceModel::rowCount(const QModelIndex &parent) const
{
    const findings::FindingsPiece *p = piece();
    if (!p)
        return 0;
    if (!parent.isValid())
        return int(p->sections.size());
    if (parent.internalId() != kSectionId || parent.column() != 0)
        return 0;
    return int(p->sections[std::size_t(parent.row())].lines.size());
}

int PieceModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QString PieceModel::sectionName(int sectionKind)
{
    switch (SectionKind(sectionKind)) {
    case SectionKind::Header:
        return tr("header");
    case SectionKind::Facts:
        return tr("facts");
    case SectionKind::Limitations:
        return tr("limitations");
    case SectionKind::EvidenceRefs:
        return tr("evidence refs");
    case SectionKind::NextSteps:
        return tr("next steps");
    case SectionKind::Contingent:
        return tr("contingent");
    case SectionKind::Unsettled:
        return tr("unsettled by absence");
    case SectionKind::Noise:
        return tr("noise");
    case SectionKind::Undeclared:
        return tr("undeclared");
    case SectionKind::Ask:
        return tr("answer ask");
    }
    return {};
}

bool PieceModel::hasOverflow(const findings::PieceLine &line)
{
    return line.clippedUnits > 0 || line.hiddenLines > 0 || line.kind == LineKind::More;
}

QString PieceModel::overflowExplanation(const findings::PieceLine &line)
{
    QStringList parts;
    if (line.kind == LineKind::More)
        parts << tr("%n line(s) of this bucket are not served: a bucket lists at most %1 lines (bucketLines cap).",
                    nullptr, int(line.hiddenLines))
                     .arg(kBucketLines);
    else if (line.kind == LineKind::CountLine && line.hiddenLines > 0)
        parts << tr("%n id(s) are counted but not listed: a count line lists at most %1 ids (listedIds cap).", nullptr,
                    int(line.hiddenLines))
                     .arg(kListedIds);
    if (line.clippedUnits > 0) {
        if (line.kind == LineKind::CountLine)
            parts << tr("%n UTF-16 unit(s) were clipped from ids longer than the %1-unit id cap (idChars).", nullptr,
                        int(line.clippedUnits))
                         .arg(line.clipCap ? int(line.clipCap) : kIdChars);
        else
            parts << tr("%n UTF-16 unit(s) were clipped: a line is cut at %1 units (lineChars cap).", nullptr,
                        int(line.clippedUnits))
                         .arg(line.clipCap ? int(line.clipCap) : kLineChars);
    }
    return parts.join(QLatin1Char('\n'));
}

QVariant PieceModel::data(const QModelIndex &index, int role) const
{
    const findings::FindingsPiece *p = piece();
    if (!p || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const bool isSection = index.internalId() == kSectionId;
    const int sectionRow = isSection ? index.row() : int(index.internalId() - 1);
    const findings::PieceSection &section = p->sections[std::size_t(sectionRow)];

    if (isSection) {
        const findings::PieceLine *heading = !section.lines.empty() && section.lines.front().kind == LineKind::Heading
                                                 ? &section.lines.front()
                                                 : nullptr;
        int overflowLines = 0, length = 0;
        for (std::size_t l = 0; l < section.lines.size(); ++l) {
            overflowLines += hasOverflow(section.lines[l]) ? 1 : 0;
            length += int(section.lines[l].text.size()) + (l > 0 ? 1 : 0);
        }
        switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
            case TextColumn:
                return sectionName(int(section.kind));
            case KindColumn:
                return toQString(std::string_view(findings::sectionKindName(section.kind)));
            case UnitsColumn:
                return formatCount(std::size_t(length));
            case RowsColumn:
                return tr("%n line(s)", nullptr, int(section.totalContentLines));
            default:
                return {};
            }
        case Qt::ToolTipRole:
            return heading ? toolTipText(toQString(std::u16string_view(heading->text))) : QVariant();
        case SectionKindRole:
            return int(section.kind);
        case OffsetRole:
            return m_sectionOffsets.value(sectionRow);
        case LengthRole:
            return length;
        case TotalLinesRole:
            return int(section.totalContentLines);
        case OverflowRole:
            return overflowLines > 0;
        default:
            return {};
        }
    }

    const findings::PieceLine &line = section.lines[std::size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TextColumn:
            return toQString(std::u16string_view(line.text));
        case KindColumn:
            switch (line.kind) {
            case LineKind::Header:
                return tr("header");
            case LineKind::Heading:
                return tr("heading");
            case LineKind::Content:
                return tr("line");
            case LineKind::More:
                return tr("more");
            case LineKind::CountLine:
                return tr("count");
            case LineKind::Ask:
                return tr("ask");
            }
            return {};
        case UnitsColumn:
            return formatCount(line.text.size());
        case RowsColumn: {
            QStringList rows;
            for (std::size_t r : line.rowIndices)
                rows << QString::number(r);
            return rows.join(QStringLiteral(", "));
        }
        default:
            return {};
        }
    case Qt::ToolTipRole: {
        const QString why = overflowExplanation(line);
        return why.isEmpty() ? QVariant() : QVariant(toolTipText(why));
    }
    case OverflowToolTipRole:
        return overflowExplanation(line);
    case LoneSurrogatesRole: {
        QList<QPoint> out;
        for (const LoneSurrogate &s : loneSurrogates(std::u16string_view(line.text)))
            out.append(QPoint(int(s.position), int(s.unit)));
        return QVariant::fromValue(out);
    }
    case SectionKindRole:
        return int(section.kind);
    case LineKindRole:
        return int(line.kind);
    case SpansRole: {
        QList<SpanRange> spans;
        spans.reserve(qsizetype(line.spans.size()));
        for (const findings::PieceSpan &s : line.spans)
            spans.append({int(s.begin), int(s.end), int(s.origin)});
        return QVariant::fromValue(spans);
    }
    case OffsetRole:
        return m_lineOffsets.value(sectionRow).value(index.row());
    case LengthRole:
        return int(line.text.size());
    case OverflowRole:
        return hasOverflow(line);
    case ClippedUnitsRole:
        return int(line.clippedUnits);
    case ClipCapRole:
        return int(line.clipCap);
    case HiddenLinesRole:
        return int(line.hiddenLines);
    case RowIndicesRole: {
        QList<int> rows;
        for (std::size_t r : line.rowIndices)
            rows.append(int(r));
        return QVariant::fromValue(rows);
    }
    default:
        return {};
    }
}

QVariant PieceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TextColumn:
        return tr("Text");
    case KindColumn:
        return tr("Kind");
    case UnitsColumn:
        return tr("UTF-16");
    case RowsColumn:
        return tr("Ledger rows");
    default:
        return {};
    }
}

} // namespace tf::ui
