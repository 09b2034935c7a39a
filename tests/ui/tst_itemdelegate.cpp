// The item views' fast text path: ItemDelegate must paint what QStyledItemDelegate paints (same pixels), and
// elidedLine() must return what QFontMetrics::elidedText() returns, for every kind of text a cell can hold.

#include "ui/widgets/glyphdelegate.h"
#include "ui/widgets/glyphs.h"
#include "ui/widgets/itemdelegate.h"
#include "ui/widgets/textlayoutcache.h"

#include <QApplication>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

#include <memory>

using namespace tf::ui;

namespace {

constexpr int kGlyphRole = Qt::UserRole + 1;

// The text of every cell kind: numbers, ids, a long tool result, markup that must stay literal, non-Latin scripts
// (Arabic and Devanagari need shaping), astral characters, zero-width characters that make a prefix narrow.
QStringList cellTexts()
{
    return {
        QStringLiteral("42"),
        QStringLiteral("call_58"),
        QStringLiteral("{\"port\":\"fc1/3\",\"state\":\"up\",\"crc\":93820,\"log\":\"sfp port timeout\"}").repeated(40),
        QStringLiteral("<b>bold</b> <img src=x> &amp; <a href=\"h\">link</a>"),
        QStringLiteral("مرحبا بالعالم — नमस्ते दुनिया — 你好"),
        QStringLiteral("😀 emoji 😀 at the cut ") + QString::fromUcs4(U"😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀"),
        QString(400, QChar(0x200B)) + QStringLiteral("visible after zero-width characters"),
        QStringLiteral("short    "), // trailing spaces count when the style elides
        QStringLiteral("length\u009cvariant\u009cseparators in untrusted text, long enough to be elided"),
        QStringLiteral("bidi \u202eoverride\u202c and isolate \u2067rtl\u2069 controls, long enough to elide"),
        QString(),
    };
}

} // namespace

class TestItemDelegate : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void elidedLineMatchesFontMetrics_data();
    void elidedLineMatchesFontMetrics();
    void paintsLikeStyledDelegate_data();
    void paintsLikeStyledDelegate();
    void cacheKeepsOneLayoutPerTextAndWidth();
    void cacheKeepsATextLongerThanItsCapacity();
};

void TestItemDelegate::initTestCase()
{
    // The fast path is the common style's drawing; the tests draw with Fusion, the style offscreen and on Linux.
    QApplication::setStyle(QStringLiteral("Fusion"));
}

void TestItemDelegate::elidedLineMatchesFontMetrics_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("mode");
    const QStringList texts = cellTexts();
    for (int t = 0; t < texts.size(); ++t)
        for (int width : {0, 7, 60, 240, 900})
            for (Qt::TextElideMode mode : {Qt::ElideRight, Qt::ElideLeft, Qt::ElideMiddle, Qt::ElideNone})
                QTest::addRow("text%d-w%d-mode%d", t, width, int(mode)) << texts.at(t) << width << int(mode);
}

void TestItemDelegate::elidedLineMatchesFontMetrics()
{
    QFETCH(QString, text);
    QFETCH(int, width);
    QFETCH(int, mode);
    const QFont font = QApplication::font();
    const auto m = Qt::TextElideMode(mode);
    const QString expected = QFontMetrics(font).elidedText(text, m, width, Qt::TextLongestVariant);
    const QString got = elidedLine(text, font, width, m);
    if (text.contains(QChar(0x202E)) || text.contains(QChar(0x2067))) {
        // Bidi controls past the cut may be dropped (they draw nothing): compare what is visible.
        const auto visible = [](QString s) {
            s.remove(QRegularExpression(QStringLiteral("[\\x{202A}-\\x{202E}\\x{2066}-\\x{2069}]")));
            return s;
        };
        QCOMPARE(visible(got), visible(expected));
    } else {
        QCOMPARE(got, expected);
    }
}

void TestItemDelegate::paintsLikeStyledDelegate_data()
{
    QTest::addColumn<int>("columnWidth");
    QTest::addColumn<bool>("glyphs");
    QTest::addColumn<bool>("focused");
    for (int w : {40, 120, 400})
        for (bool glyphs : {false, true})
            for (bool focused : {false, true})
                QTest::addRow("w%d%s%s", w, glyphs ? "-glyphs" : "", focused ? "-focused" : "")
                    << w << glyphs << focused;
}

// The same table painted twice, once with QStyledItemDelegate and once with the fast path: every pixel must agree
// (alignment, selection colours, a foreground role, an icon, elision, literal markup).
void TestItemDelegate::paintsLikeStyledDelegate()
{
    QFETCH(int, columnWidth);
    QFETCH(bool, glyphs);
    QFETCH(bool, focused);
    const QStringList texts = cellTexts();
    QStandardItemModel model(int(texts.size()), 3);
    for (int r = 0; r < texts.size(); ++r) {
        auto *left = new QStandardItem(texts.at(r));
        left->setData(int(Glyph::Verified), kGlyphRole);
        model.setItem(r, 0, left);
        auto *right = new QStandardItem(texts.at(r));
        right->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        right->setForeground(QColor(0x0072B2));
        model.setItem(r, 1, right);
        auto *centre = new QStandardItem(texts.at(r));
        centre->setTextAlignment(Qt::AlignCenter);
        QFont bold = QApplication::font();
        bold.setBold(true);
        centre->setFont(bold);
        model.setItem(r, 2, centre);
    }
    const auto render = [&](QAbstractItemDelegate *delegate) {
        QTableView view;
        view.setItemDelegate(delegate);
        view.setWordWrap(false); // as every table of the window (wrapped text takes QStyledItemDelegate's path)
        view.setModel(&model);
        for (int c = 0; c < 3; ++c)
            view.setColumnWidth(c, columnWidth);
        view.resize(3 * columnWidth + 40, 30 * int(texts.size()) + 40);
        view.selectRow(2);
        view.show();
        if (!QTest::qWaitForWindowExposed(&view))
            return QImage();
        if (focused) {
            // Active colours and the focus frame over the current cell.
            view.activateWindow();
            view.setFocus();
            if (!QTest::qWaitForWindowActive(&view) || !view.hasFocus())
                return QImage();
        }
        return view.viewport()->grab().toImage();
    };
    // The reference is the same options (the shaping strategy, GlyphDelegate's decoration) painted by
    // QStyledItemDelegate.
    struct Styled : ItemDelegate
    {
        void paint(QPainter *p, const QStyleOptionViewItem &o, const QModelIndex &i) const override
        {
            QStyledItemDelegate::paint(p, o, i); // NOLINT(bugprone-parent-virtual-call): the reference path
        }
    };
    struct StyledGlyphs : GlyphDelegate
    {
        using GlyphDelegate::GlyphDelegate;
        void paint(QPainter *p, const QStyleOptionViewItem &o, const QModelIndex &i) const override
        {
            QStyledItemDelegate::paint(p, o, i); // NOLINT(bugprone-parent-virtual-call): the reference path
        }
    };
    std::unique_ptr<QAbstractItemDelegate> reference, fast;
    if (glyphs) {
        reference = std::make_unique<StyledGlyphs>(kGlyphRole);
        fast = std::make_unique<GlyphDelegate>(kGlyphRole);
    } else {
        reference = std::make_unique<Styled>();
        fast = std::make_unique<ItemDelegate>();
    }
    const QImage expected = render(reference.get());
    const QImage got = render(fast.get());
    QVERIFY(!expected.isNull());
    QCOMPARE(got, expected);
}

void TestItemDelegate::cacheKeepsOneLayoutPerTextAndWidth()
{
    TextLayoutCache &cache = TextLayoutCache::instance();
    const QFont font = QApplication::font();
    const QString text = QStringLiteral("<b>not bold</b> and long enough to be elided at forty pixels");
    const auto lineAt = [&](int width) -> const TextLayoutCache::Line & {
        return cache.line(text, font, width, Qt::ElideRight, Qt::AlignLeft, Qt::LeftToRight);
    };
    const TextLayoutCache::Line &first = lineAt(40);
    QCOMPARE(&lineAt(40), &first);
    QCOMPARE(first.layout.text(), QFontMetrics(font).elidedText(text, Qt::ElideRight, 40));
    QCOMPARE(first.layout.lineCount(), 1);
    QVERIFY(first.height > 0);
    QVERIFY(&lineAt(41) != &first);
}

// A text whose cost alone exceeds the cache's capacity (a whole tool result in one cell) is still kept: QCache
// refuses, and deletes, an entry that costs more than the cache holds.
void TestItemDelegate::cacheKeepsATextLongerThanItsCapacity()
{
    TextLayoutCache &cache = TextLayoutCache::instance();
    const QFont font = QApplication::font();
    const QString text = QString(TextLayoutCache::kCostChars * (TextLayoutCache::kCapacity + 10), QLatin1Char('x'));
    const TextLayoutCache::Line &line = cache.line(text, font, 120, Qt::ElideRight, Qt::AlignLeft, Qt::LeftToRight);
    QCOMPARE(line.layout.text(), elidedLine(text, font, 120, Qt::ElideRight));
    QCOMPARE(&cache.line(text, font, 120, Qt::ElideRight, Qt::AlignLeft, Qt::LeftToRight), &line);
}

QTEST_MAIN(TestItemDelegate)
#include "tst_itemdelegate.moc"
