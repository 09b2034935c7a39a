// The one conversion seam between core text (WTF-8 / UTF-16) and QString, and the helpers that keep untrusted text
// plain.

#include "ui/services/qtstrings.h"

#include <QTest>

using namespace tf::ui;

class TestQtStrings : public QObject
{
    Q_OBJECT

private slots:
    void wtf8_data();
    void wtf8();
    void utf16LoneSurrogates();
    void toolTipIsEscaped();
    void previewLine_data();
    void previewLine();
    void mnemonic();
};

void TestQtStrings::wtf8_data()
{
    QTest::addColumn<QByteArray>("wtf8");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("lone");
    QTest::newRow("ascii") << QByteArray("plain") << QStringLiteral("plain") << 0;
    QTest::newRow("bmp-and-pair") << QByteArray("\xC3\xBC \xF0\x9D\x94\x98") << QStringLiteral("ü 𝔘") << 0;
    QTest::newRow("lone-high-surrogate-in-the-middle")
        << QByteArray("a\xED\xA0\xBD"
                      "b")
        << QString(QStringLiteral("a") + QChar(0xFFFD) + QStringLiteral("b")) << 1;
    QTest::newRow("lone-low-surrogate-at-the-end")
        << QByteArray("x\xED\xB8\x80") << QString(QStringLiteral("x") + QChar(0xFFFD)) << 1;
    QTest::newRow("embedded-nul") << QByteArray("a\0b", 3)
                                  << QString(QStringLiteral("a") + QChar(0) + QStringLiteral("b")) << 0;
}

void TestQtStrings::wtf8()
{
    QFETCH(QByteArray, wtf8);
    QFETCH(QString, expected);
    QFETCH(int, lone);
    const std::string_view view(wtf8.constData(), std::size_t(wtf8.size()));
    const QString out = toQString(view);
    QCOMPARE(out, expected);
    QCOMPARE(loneSurrogates(view).size(), lone);
}

void TestQtStrings::utf16LoneSurrogates()
{
    // A high surrogate left alone by a clip, a valid pair, then a lone low surrogate: positions stay 1:1.
    const std::u16string s = {u'a', char16_t(0xD83D), u'b', char16_t(0xD83D), char16_t(0xDE00), char16_t(0xDC00)};
    const QString q = toQString(std::u16string_view(s));
    QCOMPARE(q.size(), qsizetype(s.size()));
    QCOMPARE(q.at(1), QChar(QChar::ReplacementCharacter));
    QCOMPARE(q.at(3).unicode(), char16_t(0xD83D));
    QCOMPARE(q.at(4).unicode(), char16_t(0xDE00));
    QCOMPARE(q.at(5), QChar(QChar::ReplacementCharacter));
    const QList<LoneSurrogate> lone = loneSurrogates(std::u16string_view(s));
    QCOMPARE(lone.size(), 2);
    QCOMPARE(lone[0].position, 1);
    QCOMPARE(lone[0].unit, char16_t(0xD83D));
    QCOMPARE(lone[1].position, 5);
    QCOMPARE(codeUnitName(lone[0].unit), QStringLiteral("U+D83D"));
}

void TestQtStrings::toolTipIsEscaped()
{
    const QString tip = toolTipText(QStringLiteral("<img src=x onerror=1> & <b>bold</b>"));
    QVERIFY(!tip.contains(QStringLiteral("<img")));
    QVERIFY(!tip.contains(QStringLiteral("<b>")));
    QVERIFY(tip.contains(QStringLiteral("&lt;img")));
    QVERIFY(toolTipText(QString()).isEmpty());
}

void TestQtStrings::previewLine_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("max");
    QTest::addColumn<QString>("expected");
    QTest::newRow("short") << QStringLiteral("hello") << 10 << QStringLiteral("hello");
    QTest::newRow("newlines-folded") << QStringLiteral("  a\n\n b\tc ") << 10 << QStringLiteral("a b c");
    QTest::newRow("elided") << QStringLiteral("abcdefghij") << 4 << QString(QStringLiteral("abcd") + QChar(0x2026));
}

void TestQtStrings::previewLine()
{
    QFETCH(QString, text);
    QFETCH(int, max);
    QFETCH(QString, expected);
    QCOMPARE(tf::ui::previewLine(text, max), expected);
}

void TestQtStrings::mnemonic()
{
    QCOMPARE(escapeMnemonic(QStringLiteral("a&b.json")), QStringLiteral("a&&b.json"));
}

QTEST_APPLESS_MAIN(TestQtStrings)
#include "tst_qtstrings.moc"
