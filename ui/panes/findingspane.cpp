#include "ui/panes/findingspane.h"

#include "ui/models/piecemodel.h"
#include "ui/services/qtstrings.h"
#include "ui/widgets/annotatedtextview.h"
#include "ui/widgets/compactheight.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/theme.h"

#include "core/text/utf.h"

#include <QApplication>
#include <QButtonGroup>
#include <QClipboard>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace tf::ui {

using findings::LineKind;
using findings::SectionKind;
using findings::SpanOrigin;
using theme::Tone;

namespace {

enum Page
{
    StructuredPage,
    RawPage,
    NoPiecePage
};

QString rowsLabel(const QList<int> &rows)
{
    if (rows.isEmpty())
        return {};
    // The first row it quotes, and how many more (the tooltip lists them all).
    return rows.size() == 1 ? QStringLiteral("#%1").arg(rows.front())
                            : QStringLiteral("#%1 +%2").arg(rows.front()).arg(rows.size() - 1);
}

} // namespace

FindingsPane::FindingsPane(QWidget *parent)
    : QWidget(parent)
    , m_model(new PieceModel(this))
{
    setObjectName(QStringLiteral("findingsPane"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto *bar = new QWidget(this);
    bar->setObjectName(QStringLiteral("findingsBar"));
    auto *barLayout = new QHBoxLayout(bar);
    barLayout->setContentsMargins(6, 3, 6, 3);
    barLayout->setSpacing(4);
    m_structuredButton = new QToolButton(bar);
    m_structuredButton->setObjectName(QStringLiteral("structuredButton"));
    m_structuredButton->setText(tr("Structured"));
    m_structuredButton->setToolTip(
        tr("The piece drawn from its structure: buckets, the model's words, overflow notes"));
    m_rawButton = new QToolButton(bar);
    m_rawButton->setObjectName(QStringLiteral("rawButton"));
    m_rawButton->setText(tr("Raw"));
    m_rawButton->setToolTip(tr("The exact text of the piece as it was sent"));
    auto *group = new QButtonGroup(this);
    for (QToolButton *b : {m_structuredButton, m_rawButton}) {
        b->setCheckable(true);
        b->setAutoRaise(true);
        group->addButton(b);
        barLayout->addWidget(b);
    }
    group->setExclusive(true);
    m_structuredButton->setChecked(true);
    m_stats = new ElidedLabel(bar);
    m_stats->setObjectName(QStringLiteral("pieceStats"));
    m_stats->setForegroundRole(QPalette::PlaceholderText);
    barLayout->addSpacing(8);
    barLayout->addWidget(m_stats, 1);
    m_copyButton = new QToolButton(bar);
    m_copyButton->setObjectName(QStringLiteral("copyPieceButton"));
    m_copyButton->setText(tr("Copy"));
    m_copyButton->setIcon(QIcon::fromTheme(QStringLiteral("edit-copy")));
    m_copyButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_copyButton->setAutoRaise(true);
    m_copyButton->setToolTip(tr("Copy the exact bytes of the piece (UTF-8, as sent and hashed)"));
    barLayout->addWidget(m_copyButton);
    layout->addWidget(bar);

    auto *line = new QFrame(this);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Plain);
    line->setForegroundRole(QPalette::Mid);
    layout->addWidget(line);

    m_stack = new QStackedWidget(this);
    m_structured = new AnnotatedTextView(m_stack);
    m_structured->setObjectName(QStringLiteral("pieceStructuredView"));
    m_structured->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_raw = new AnnotatedTextView(m_stack);
    m_raw->setObjectName(QStringLiteral("pieceRawView"));
    m_raw->setFont(fonts::fixedPitch());
    m_raw->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_noPiece = new QLabel(m_stack);
    m_noPiece->setObjectName(QStringLiteral("noPieceLabel"));
    m_noPiece->setTextFormat(Qt::PlainText);
    m_noPiece->setWordWrap(true);
    m_noPiece->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    m_noPiece->setAlignment(Qt::AlignCenter);
    m_noPiece->setMargin(24);
    m_noPiece->setForegroundRole(QPalette::PlaceholderText);
    setCompactHeight(m_structured, 3);
    setCompactHeight(m_raw, 3);
    m_stack->addWidget(m_structured);
    m_stack->addWidget(m_raw);
    m_stack->addWidget(m_noPiece);
    layout->addWidget(m_stack, 1);

    connect(m_structuredButton, &QToolButton::toggled, this, [this](bool on) {
        if (on)
            rebuild();
    });
    connect(m_rawButton, &QToolButton::toggled, this, [this](bool on) {
        if (on)
            rebuild();
    });
    connect(m_copyButton, &QToolButton::clicked, this, &FindingsPane::copyPiece);
    connect(m_structured, &AnnotatedTextView::blockActivated, this, [this](int block) {
        if (block < 0 || block >= m_blockLines.size() || m_blockLines[block].first < 0)
            return;
        if (m_blockLines[block].second < 0) {
            // The folded header line: clicking it unfolds it (deferred: the document is rebuilt).
            QTimer::singleShot(0, this, [this] { setHeaderExpanded(true); });
            return;
        }
        const QModelIndex section = m_model->index(m_blockLines[block].first, 0);
        const QModelIndex line = m_model->index(m_blockLines[block].second, 0, section);
        const QList<int> rows = line.data(PieceModel::RowIndicesRole).value<QList<int>>();
        if (!rows.isEmpty())
            emit ledgerRowsQuoted(rows);
    });
    rebuild();
}

void FindingsPane::setBundle(const BundleHandle &bundle)
{
    const bool newCall = !sameCall(m_bundle, bundle);
    m_bundle = bundle;
    m_model->setBundle(bundle);
    rebuild(newCall);
}

bool FindingsPane::showingRaw() const
{
    return m_rawButton->isChecked();
}

void FindingsPane::setShowRaw(bool raw)
{
    (raw ? m_rawButton : m_structuredButton)->setChecked(true);
}

void FindingsPane::setHeaderExpanded(bool expanded)
{
    if (expanded == m_headerExpanded)
        return;
    m_headerExpanded = expanded;
    rebuild();
}

int FindingsPane::blockOf(int section, int line) const
{
    return int(m_blockLines.indexOf(qMakePair(section, line)));
}

QByteArray FindingsPane::exactBytes() const
{
    const findings::FindingsPiece *piece = m_model->piece();
    if (!piece)
        return {};
    const std::string bytes = text::toUtf8Lossy(std::u16string_view(piece->text));
    return QByteArray(bytes.data(), qsizetype(bytes.size()));
}

void FindingsPane::copyPiece()
{
    const QByteArray bytes = exactBytes();
    if (bytes.isEmpty())
        return;
    auto *mime = new QMimeData;
    mime->setData(QStringLiteral("text/plain;charset=utf-8"), bytes);
    mime->setText(QString::fromUtf8(bytes));
    QApplication::clipboard()->setMimeData(mime);
}

void FindingsPane::rebuild(bool newCall)
{
    const findings::FindingsPiece *piece = m_model->piece();
    m_copyButton->setEnabled(piece != nullptr);
    if (!m_bundle) {
        m_stats->setText(QString());
        m_noPiece->setText(tr("No recording is open."));
        m_stack->setCurrentIndex(NoPiecePage);
        return;
    }
    if (!piece) {
        m_stats->setText(tr("No findings piece"));
        const QString reason = toQString(m_bundle->view->noPieceReason);
        m_noPiece->setText(reason.isEmpty() ? tr("No findings piece was served at this call.")
                                            : tr("No findings piece was served at this call:\n%1.").arg(reason));
        m_stack->setCurrentIndex(NoPiecePage);
        m_structured->clearAll();
        m_raw->clearAll();
        return;
    }
    m_addedLines.clear();
    for (const text::DiffLine &l : m_bundle->pieceDiff)
        if (l.op == text::DiffLine::Op::Added)
            m_addedLines.insert(l.newLine);
    m_newLines = int(m_addedLines.size());
    QString stats = tr("%1 B UTF-8 · %2 UTF-16").arg(formatCount(piece->sizeUtf8()), formatCount(piece->lengthU16()));
    stats += m_bundle->view->pieceChangedSincePrevious ? tr(" · changed") : tr(" · unchanged");
    if (m_newLines > 0 && m_bundle->previous && m_bundle->previous->piece)
        stats += tr(" · %n new line(s)", nullptr, m_newLines);
    if (piece->hasLoneSurrogate())
        stats += tr(" · lone surrogate");
    int sections = 0;
    for (const auto &s : piece->sections)
        sections += s.kind == SectionKind::Header ? 0 : 1;
    m_stats->setText(stats);
    m_stats->setToolTip(toolTipText(
        tr("%1 UTF-8 bytes (as sent and hashed), %2 UTF-16 code units (as the library counts)\n%n bucket(s)\n%3",
           nullptr, sections)
            .arg(formatCount(piece->sizeUtf8()), formatCount(piece->lengthU16()),
                 m_bundle->view->pieceChangedSincePrevious ? tr("Changed since the previous call")
                                                           : tr("The same bytes as at the previous call"))));
    if (showingRaw()) {
        renderRaw();
        m_stack->setCurrentIndex(RawPage);
    } else {
        renderStructured();
        m_stack->setCurrentIndex(StructuredPage);
        // Stepping to a call shows what it added to the piece first.
        if (newCall && m_firstNewBlock >= 0 && m_bundle->previous && m_bundle->previous->piece)
            m_structured->revealBlock(m_firstNewBlock);
    }
}

void FindingsPane::renderRaw()
{
    const findings::FindingsPiece *piece = m_model->piece();
    const QString text = toQString(std::u16string_view(piece->text));
    QList<AnnotatedTextView::Range> ranges;
    for (const LoneSurrogate &s : loneSurrogates(std::u16string_view(piece->text))) {
        AnnotatedTextView::Range r;
        r.begin = int(s.position);
        r.length = 1;
        r.format.setBackground(theme::tint(Tone::Bad, palette(), 0.35));
        r.format.setForeground(theme::textOn(Tone::Bad, palette()));
        r.toolTip = tr("A lone surrogate %1 (shown as U+FFFD; sent as EF BF BD)").arg(codeUnitName(s.unit));
        ranges.append(r);
    }
    m_raw->setAnnotatedText(text, ranges);
    QStringList gutter;
    const int lines = int(text.count(QLatin1Char('\n'))) + 1;
    gutter.reserve(lines);
    for (int i = 0; i < lines; ++i)
        gutter << QString::number(i + 1);
    m_raw->setGutter(gutter);
}

void FindingsPane::renderStructured()
{
    const QPalette pal = palette();
    QList<AnnotatedTextView::Range> ranges;
    QHash<int, AnnotatedTextView::BlockStyle> blocks;
    QHash<int, QString> notes;
    QStringList gutter, gutterTips;
    m_blockLines.clear();

    // The library's wording is in the text's own colour: its spans, about half of a piece's, need no format.
    m_structured->setTextColour(theme::libraryText(pal));
    QTextCharFormat model;
    model.setForeground(theme::modelText(pal));
    model.setBackground(theme::modelBackground(pal));
    QTextCharFormat overflow;
    overflow.setBackground(theme::tint(Tone::Warn, pal, 0.38));
    overflow.setForeground(theme::textOn(Tone::Warn, pal));
    overflow.setFontWeight(QFont::DemiBold);
    QTextCharFormat header;
    header.setFontItalic(true);
    QTextCharFormat heading;
    heading.setForeground(pal.color(QPalette::Text));
    heading.setFontWeight(QFont::Bold);

    int block = 0;
    int pieceLine = 0; // line of the piece text the next block shows
    QList<int> newBlocks;
    m_firstNewBlock = -1;
    const bool compared = m_bundle->previous && m_bundle->previous->piece;

    // Read from the piece itself, not through the model's roles: a piece of 400 lines asked each line for its spans,
    // rows, lone surrogates and overflow note as QVariants at every call switch.
    const findings::FindingsPiece &piece = *m_model->piece();
    QString text;
    {
        qsizetype units = 0;
        for (const findings::PieceSection &section : piece.sections)
            for (const findings::PieceLine &line : section.lines)
                units += qsizetype(line.text.size()) + 1;
        text.reserve(units + 2 * qsizetype(piece.sections.size()));
    }
    const auto addBlock = [&](const QString &line, int section, int lineIndex) {
        if (block > 0)
            text += QLatin1Char('\n');
        text += line;
        m_blockLines.append(qMakePair(section, lineIndex));
        ++block;
    };

    const int sections = int(piece.sections.size());
    for (int s = 0; s < sections; ++s) {
        const findings::PieceSection &section = piece.sections[std::size_t(s)];
        const SectionKind sectionKind = section.kind;
        if (s > 0) {
            addBlock(QString(), -1, -1);
            ++pieceLine;
            gutter << QString();
            gutterTips << QString();
        }
        const int lines = int(section.lines.size());
        if (sectionKind == SectionKind::Header && !m_headerExpanded) {
            const int start = int(text.size()) + (block > 0 ? 1 : 0);
            const QString folded =
                tr("▸ Header: %n line(s) of the library's field meanings, the same at every call (click to show)",
                   nullptr, lines);
            const int thisBlock = block;
            addBlock(folded, s, -1);
            pieceLine += lines;
            ranges.append({start, int(folded.size()), header, QString()});
            AnnotatedTextView::BlockStyle style;
            style.background = theme::foldBackground(pal);
            blocks.insert(thisBlock, style);
            gutter << QString();
            gutterTips << QString();
            continue;
        }
        for (int l = 0; l < lines; ++l) {
            const findings::PieceLine &line = section.lines[std::size_t(l)];
            const QString lineText = toQString(std::u16string_view(line.text));
            const LineKind kind = line.kind;
            const int start = int(text.size()) + (block > 0 ? 1 : 0);
            const int thisBlock = block;
            addBlock(lineText, s, l);
            if (compared && m_addedLines.contains(pieceLine))
                newBlocks.append(thisBlock);
            ++pieceLine;

            QList<int> rows;
            rows.reserve(qsizetype(line.rowIndices.size()));
            for (std::size_t r : line.rowIndices)
                rows.append(int(r));
            gutter << rowsLabel(rows);
            QStringList rowNames;
            for (int r : rows)
                rowNames << QString::number(r);
            gutterTips << (rows.isEmpty() ? QString()
                                          : tr("Quotes ledger row(s) %1").arg(rowNames.join(QStringLiteral(", "))));

            if (kind == LineKind::Heading) {
                AnnotatedTextView::BlockStyle style;
                style.background = theme::mix(pal.color(QPalette::Base), pal.color(QPalette::Window), 0.85);
                style.marker = theme::strong(Tone::Info, pal);
                style.format = heading;
                style.hasFormat = true;
                blocks.insert(thisBlock, style);
                const int total = int(section.totalContentLines);
                const int shown = lines - 1;
                if (sectionKind != SectionKind::Noise && sectionKind != SectionKind::Undeclared)
                    notes.insert(thisBlock, total > shown ? tr("%1 of %2 lines").arg(shown).arg(total)
                                                          : tr("%n line(s)", nullptr, total));
                continue;
            }
            if (kind == LineKind::Header) {
                ranges.append({start, int(lineText.size()), header, QString()});
                if (l == 0)
                    notes.insert(thisBlock, tr("header"));
                continue;
            }
            const QString overflowTip = PieceModel::overflowExplanation(line);
            if (kind == LineKind::More) {
                AnnotatedTextView::BlockStyle style;
                style.background = theme::tint(Tone::Warn, pal, 0.14);
                style.marker = theme::strong(Tone::Warn, pal);
                blocks.insert(thisBlock, style);
                ranges.append({start, int(lineText.size()), overflow, overflowTip});
                continue;
            }
            for (const findings::PieceSpan &span : line.spans) {
                if (span.origin == SpanOrigin::Library)
                    continue;
                const bool clipped = span.origin == SpanOrigin::Overflow;
                ranges.append({start + int(span.begin), int(span.end - span.begin), clipped ? overflow : model,
                               clipped ? overflowTip : QString()});
            }
            // "+K more" inside a count line is library wording but still an overflow note.
            if (kind == LineKind::CountLine && line.hiddenLines > 0) {
                const QString more = QStringLiteral("+%1 more").arg(line.hiddenLines);
                const int at = int(lineText.lastIndexOf(more));
                if (at >= 0)
                    ranges.append({start + at, int(more.size()), overflow, overflowTip});
            }
            if (PieceModel::hasOverflow(line)) {
                AnnotatedTextView::BlockStyle style;
                style.marker = theme::strong(Tone::Warn, pal);
                blocks.insert(thisBlock, style);
            }
            // Lone surrogates: the QString shows U+FFFD in place; mark it and say what was there.
            for (const LoneSurrogate &ls : loneSurrogates(std::u16string_view(line.text))) {
                QTextCharFormat f;
                f.setBackground(theme::tint(Tone::Bad, pal, 0.35));
                f.setForeground(theme::textOn(Tone::Bad, pal));
                ranges.append(
                    {start + int(ls.position), 1, f,
                     tr("A lone surrogate %1 (shown as U+FFFD; sent as EF BF BD)").arg(codeUnitName(ls.unit))});
            }
        }
    }

    // Lines added since the previous call carry the accent bar (the colour of rows filed at this call).
    for (int b : std::as_const(newBlocks)) {
        AnnotatedTextView::BlockStyle style = blocks.value(b);
        style.marker = theme::strong(Tone::Accent, pal);
        blocks.insert(b, style);
        if (gutterTips.value(b).isEmpty())
            gutterTips[b] = tr("New since the previous call");
        else
            gutterTips[b] += QLatin1Char('\n') + tr("New since the previous call");
    }
    m_firstNewBlock = newBlocks.isEmpty() ? -1 : newBlocks.front();
    m_structured->setAnnotatedText(text, ranges, blocks);
    m_structured->setGutter(gutter, gutterTips);
    m_structured->setBlockNotes(notes);
}

} // namespace tf::ui
