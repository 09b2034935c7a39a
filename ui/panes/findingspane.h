#pragma once

#include "ui/services/callbundle.h"

#include <QSet>
#include <QWidget>

class QLabel;
class QStackedWidget;
class QToolButton;

namespace tf::ui {

class AnnotatedTextView;
class ElidedLabel;
class PieceModel;

// The findings piece of the selected call, recomposed by the core. "Structured" draws it from its structure:
// the header, each bucket as a titled group, the model's declared words set apart from the library's wording,
// overflow notes highlighted with a tooltip naming the cap, the ledger rows each line quotes in the gutter.
// "Raw" is the exact text with its UTF-8 byte and UTF-16 unit counts; Copy puts the exact bytes on the clipboard.
class FindingsPane : public QWidget
{
    Q_OBJECT

public:
    explicit FindingsPane(QWidget *parent = nullptr);

    void setBundle(const BundleHandle &bundle);
    PieceModel *model() const { return m_model; }

    // The piece as sent: UTF-8 from the WHATWG encoder (a lone surrogate becomes EF BF BD), as hashed.
    QByteArray exactBytes() const;
    bool showingRaw() const;
    void setShowRaw(bool raw);
    // The header (the library's field meanings, the same at every call) is folded to one line unless expanded.
    bool headerExpanded() const { return m_headerExpanded; }
    void setHeaderExpanded(bool expanded);

    // Block number of each line of the structured view: (section, line) -> block.
    int blockOf(int section, int line) const;

public slots:
    void copyPiece();

signals:
    // The ledger rows the line under the cursor quotes (ledger indices), for the Ledger pane.
    void ledgerRowsQuoted(const QList<int> &rows);

private:
    void rebuild(bool newCall = false);
    void renderStructured();
    void renderRaw();

    BundleHandle m_bundle;
    PieceModel *m_model = nullptr;
    QToolButton *m_structuredButton = nullptr;
    QToolButton *m_rawButton = nullptr;
    QToolButton *m_copyButton = nullptr;
    ElidedLabel *m_stats = nullptr;
    QStackedWidget *m_stack = nullptr;
    AnnotatedTextView *m_structured = nullptr;
    AnnotatedTextView *m_raw = nullptr;
    QLabel *m_noPiece = nullptr;
    QList<QPair<int, int>> m_blockLines; // block -> (section, line); (-1, -1) for the blank lines between sections,
                                         // (0, -1) for the folded header
    bool m_headerExpanded = false;
    int m_firstNewBlock = -1; // the first line added since the previous call, in the structured view
    int m_newLines = 0;
    QSet<int> m_addedLines; // piece text lines added since the previous call
};

} // namespace tf::ui
