#include "ui/panes/sincepreviouspane.h"

#include "ui/models/callstatus.h"
#include "ui/services/qtstrings.h"
#include "ui/widgets/annotatedtextview.h"
#include "ui/widgets/compactheight.h"
#include "ui/widgets/elidedlabel.h"
#include "ui/widgets/factgrid.h"
#include "ui/widgets/fonts.h"
#include "ui/widgets/glyphlabel.h"
#include "ui/widgets/layoutfence.h"
#include "ui/widgets/selectablelabel.h"
#include "ui/widgets/theme.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>

namespace tf::ui {

using theme::Tone;

namespace {

QString yesNo(std::optional<bool> unchanged)
{
    if (!unchanged)
        return SincePreviousPane::tr("cannot say");
    return *unchanged ? SincePreviousPane::tr("unchanged") : SincePreviousPane::tr("changed");
}

QString duration(double ms)
{
    if (ms < 1000)
        return SincePreviousPane::tr("%1 ms").arg(QString::number(ms, 'f', 0));
    if (ms < 120000)
        return SincePreviousPane::tr("%1 s").arg(QString::number(ms / 1000, 'f', 1));
    const double min = ms / 60000;
    return SincePreviousPane::tr("%1 min").arg(QString::number(min, 'f', min == std::floor(min) ? 0 : 1));
}

QString tokens(const std::optional<double> &v)
{
    return v ? formatCount(*v) : QStringLiteral("—");
}

} // namespace

SincePreviousPane::SincePreviousPane(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("sincePreviousPane"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    auto *head = new QWidget(this);
    auto *headLayout = new QVBoxLayout(head);
    headLayout->setContentsMargins(10, 6, 10, 4);
    headLayout->setSpacing(4);
    auto *verdictRow = new QHBoxLayout;
    verdictRow->setSpacing(8);
    m_glyph = new GlyphLabel(head, 18);
    m_verdict = new ElidedLabel(head);
    m_verdict->setObjectName(QStringLiteral("cacheVerdict"));
    QFont big = m_verdict->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.08);
    m_verdict->setFont(big);
    verdictRow->addWidget(m_glyph);
    verdictRow->addWidget(m_verdict, 1);
    headLayout->addLayout(verdictRow);
    m_reason = new SelectableLabel(head);
    m_reason->setObjectName(QStringLiteral("cacheReason"));
    m_reason->setWordWrap(true);
    m_reason->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    headLayout->addWidget(m_reason);

    m_facts = new FactGrid(head);
    m_facts->setObjectName(QStringLiteral("sincePreviousFacts"));
    m_provider = m_facts->addFact(tr("Provider"));
    m_system = m_facts->addFact(tr("System"));
    m_tokens = m_facts->addFact(tr("Tokens"), true);
    m_gap = m_facts->addFact(tr("Interval"));
    m_tools = m_facts->addFact(tr("Tools"));
    m_markers = m_facts->addFact(tr("Markers"), true); // a list: offered, applied, the gate
    m_basis = m_facts->addFact(tr("Compared"));
    headLayout->addWidget(m_facts);
    // Squeezed (a 720-pixel screen, a large font), the verdict and its facts scroll above the piece diff instead of
    // holding the dock, and the window, taller; with room they take what they need.
    auto *headFence = new LayoutFence(head, this);
    headFence->setObjectName(QStringLiteral("sincePreviousHead"));
    headFence->setPassesSizeHint(true);
    headFence->setCompactHeight(headLayout->contentsMargins().top() + 2 * fontMetrics().lineSpacing());
    layout->addWidget(headFence);

    auto *diffBar = new QWidget(this);
    diffBar->setAutoFillBackground(true);
    QPalette barPalette = diffBar->palette();
    barPalette.setColor(QPalette::Window,
                        theme::mix(barPalette.color(QPalette::Window), barPalette.color(QPalette::Base), 0.4));
    diffBar->setPalette(barPalette);
    auto *diffBarLayout = new QHBoxLayout(diffBar);
    diffBarLayout->setContentsMargins(10, 3, 10, 3);
    m_diffTitle = new ElidedLabel(diffBar);
    m_diffTitle->setObjectName(QStringLiteral("pieceDiffTitle"));
    QFont bold = m_diffTitle->font();
    bold.setBold(true);
    m_diffTitle->setFont(bold);
    diffBarLayout->addWidget(m_diffTitle, 1);
    layout->addWidget(diffBar);

    m_diff = new AnnotatedTextView(this);
    m_diff->setObjectName(QStringLiteral("pieceDiffView"));
    m_diff->setFont(fonts::fixedPitch());
    m_diff->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setCompactHeight(m_diff, 2);
    m_diff->setYieldsHeight(true); // the verdict and its facts first; the diff takes what is left
    layout->addWidget(m_diff, 1);
    connect(m_diff, &AnnotatedTextView::blockActivated, this, [this](int block) {
        if (block < 0 || block >= int(m_rows.size()) || !m_rows[std::size_t(block)].fold)
            return;
        // A fold clicked opens where it is, the lines above it staying put. Deferred: this is the cursor of the
        // document the fold's opening rebuilds.
        QTimer::singleShot(0, this, [this, first = m_rows[std::size_t(block)].first, bundle = m_bundle] {
            if (m_bundle != bundle || m_rows.empty())
                return;
            const int scrolled = m_diff->verticalScrollBar()->value();
            m_unfolded.insert(first);
            renderDiff();
            // The cursor on the fold's first line, where the keyboard goes on from.
            for (int b = 0; b < int(m_rows.size()); ++b)
                if (m_rows[std::size_t(b)].first == first) {
                    m_diff->placeCursor(b);
                    break;
                }
            m_diff->verticalScrollBar()->setValue(scrolled);
        });
    });
}

QString SincePreviousPane::reasonText() const
{
    return m_reason->text();
}

void SincePreviousPane::setBundle(const BundleHandle &bundle)
{
    // The same call again (a palette change re-applies it): the folds the reader opened stay open, the place stays.
    const bool again = sameCall(m_bundle, bundle);
    m_bundle = bundle;
    if (!again)
        m_unfolded.clear();
    if (!bundle) {
        m_glyph->setGlyph(std::nullopt);
        m_verdict->clear();
        m_reason->clear();
        clearDiff();
        m_diffTitle->clear();
        return;
    }
    const recording::CallView &v = *bundle->view;
    const recording::CacheFacts &c = v.cache;
    const CacheStatus status = cacheStatusOf(c.prefixReusable, c.verdict);
    m_glyph->setGlyph(glyphFor(status));
    switch (status) {
    case CacheStatus::Reusable:
        m_verdict->setText(tr("Cached prefix reusable"));
        break;
    case CacheStatus::ReusableUnmeasured:
        m_verdict->setText(tr("Cached prefix reusable (reuse not measured)"));
        break;
    case CacheStatus::Rewritten:
        m_verdict->setText(tr("Cached prefix rewritten"));
        break;
    case CacheStatus::Unknown:
        m_verdict->setText(bundle->ordinal == 0 ? tr("First call") : tr("Cannot say whether the prefix was reusable"));
        break;
    }
    m_reason->setText(toQString(c.reason));
    m_provider->setText(StatusText::verdictShort(c.verdict));
    m_provider->setToolTip(StatusText::verdict(c.verdict));
    m_tokens->setText(
        tr("read %1 · write %2 · in %3 · out %4")
            .arg(tokens(v.usage.cacheRead), tokens(v.usage.cacheWrite), tokens(v.usage.input), tokens(v.usage.output)));
    m_system->setText(yesNo(c.systemUnchanged));
    m_tools->setText(yesNo(c.toolsUnchanged));
    m_basis->setText(bundle->ordinal == 0 ? QStringLiteral("—")
                     : c.fromStoredHashes ? tr("receipt hashes")
                                          : tr("rebuilt bytes"));
    if (c.gapMs)
        m_gap->setText(tr("%1 (TTL %2)%3")
                           .arg(duration(*c.gapMs), duration(c.ttlMs), c.pastTtl ? tr(" — past the TTL") : QString()));
    else
        m_gap->setText(bundle->ordinal == 0 ? QStringLiteral("—") : StatusText::notOnRecord());
    QStringList markers;
    markers << (c.candidates ? tr("%n offered", nullptr, c.candidates->isArray() ? int(c.candidates->size()) : 0)
                             : tr("offered: not on record"));
    markers << (c.applied ? tr("%n applied", nullptr, c.applied->isArray() ? int(c.applied->size()) : 0)
                          : tr("applied: no receipt"));
    if (c.gateBranch)
        markers << tr("gate: %1").arg(toQString(*c.gateBranch));
    m_markers->setText(markers.join(QStringLiteral(" · ")));
    m_facts->refit();

    // The piece diff.
    const bool now = v.piece.has_value();
    const bool before = bundle->previous && bundle->previous->piece.has_value();
    if (!bundle->previous) {
        m_diffTitle->setText(tr("Findings piece: first call, nothing to compare"));
        clearDiff();
        return;
    }
    if (!now && !before) {
        m_diffTitle->setText(tr("Findings piece: none at this call or the previous one"));
        clearDiff();
        return;
    }
    const text::DiffStats stats = text::diffStats(bundle->pieceDiff);
    QString title;
    if (!before)
        title = tr("Findings piece arrived: %n line(s)", nullptr, stats.added);
    else if (!now)
        title = tr("Findings piece went away: %n line(s) removed", nullptr, stats.removed);
    else if (stats.added == 0 && stats.removed == 0)
        title = tr("Findings piece unchanged (%n line(s))", nullptr, stats.same);
    else
        title = tr("Findings piece: +%1 −%2 lines · %3 B → %4 B")
                    .arg(stats.added)
                    .arg(stats.removed)
                    .arg(formatCount(bundle->previous->piece->sizeUtf8()), formatCount(v.piece->sizeUtf8()));
    m_diffTitle->setText(title);

    const int scrolled = m_diff->verticalScrollBar()->value();
    renderDiff();
    if (again) {
        m_diff->verticalScrollBar()->setValue(scrolled);
        return;
    }
    // The first change in the middle, its context around it; in a view a few lines high, the change and the line
    // above it.
    for (int b = 0; b < int(m_rows.size()); ++b)
        if (!m_rows[std::size_t(b)].fold &&
            bundle->pieceDiff[m_rows[std::size_t(b)].first].op != text::DiffLine::Op::Same) {
            m_diff->revealBlock(b, AnnotatedTextView::RevealAt::Center);
            break;
        }
}

void SincePreviousPane::clearDiff()
{
    m_diff->clearAll();
    m_rows.clear(); // no fold left to open
}

void SincePreviousPane::renderDiff()
{
    const std::vector<text::DiffLine> &diff = m_bundle->pieceDiff;
    // The changes with a few lines of context, as a unified diff shows them; each longer unchanged run is one line
    // that unfolds when clicked (most of a piece is unchanged from one call to the next, and this view is a few lines
    // high).
    m_rows = text::diffRows(diff, kContextLines, m_unfolded);
    const QPalette pal = palette();
    // The unchanged lines are in the library's colour: that is the text's own colour, and only the changed lines
    // get a format (the text colour), rather than every line one (a tenth of the pane's switch at 1.5 GB).
    m_diff->setTextColour(theme::libraryText(pal));
    QTextCharFormat changed;
    changed.setForeground(pal.color(QPalette::Text));
    QTextCharFormat folded;
    folded.setFontItalic(true);
    QString text;
    QStringList gutter;
    QHash<int, AnnotatedTextView::BlockStyle> blocks;
    const auto lineNumber = [](int line) {
        return (line >= 0 ? QString::number(line + 1) : QString()).rightJustified(4);
    };
    for (int block = 0; block < int(m_rows.size()); ++block) {
        const text::DiffRow &row = m_rows[std::size_t(block)];
        if (block > 0)
            text += QLatin1Char('\n');
        AnnotatedTextView::BlockStyle style;
        if (row.fold) {
            text += tr("\u22EF %n unchanged line(s) (click to show)", nullptr, int(row.count));
            gutter << QString();
            style.background = theme::foldBackground(pal);
            style.format = folded;
            style.hasFormat = true;
            blocks.insert(block, style);
            continue;
        }
        const text::DiffLine &l = diff[row.first];
        const QChar sign = l.op == text::DiffLine::Op::Added     ? QLatin1Char('+')
                           : l.op == text::DiffLine::Op::Removed ? QChar(0x2212)
                                                                 : QLatin1Char(' ');
        text += sign + QLatin1Char(' ') + toQString(l.text);
        gutter << lineNumber(l.oldLine) + QLatin1Char(' ') + lineNumber(l.newLine);
        if (l.op == text::DiffLine::Op::Same)
            continue;
        const Tone tone = l.op == text::DiffLine::Op::Added ? Tone::Good : Tone::Bad;
        style.background = theme::tint(tone, pal, l.op == text::DiffLine::Op::Added ? 0.16 : 0.14);
        style.marker = theme::strong(tone, pal);
        style.format = changed;
        style.hasFormat = true;
        blocks.insert(block, style);
    }
    m_diff->setAnnotatedText(text, {}, blocks);
    m_diff->setGutter(gutter);
}

} // namespace tf::ui
