// The core's line diff: the findings piece since the previous call, in the Since Previous Call pane and the report.

#include "core/text/linediff.h"

#include <QTest>

using namespace tf::text;

class TestLineDiff : public QObject
{
    Q_OBJECT

private slots:
    void diff_data();
    void diff();
    void reconstructsBothSides();
    void splitLinesKeepsEmptyLines();
};

namespace {

// "=a" same, "+a" added, "-a" removed.
QStringList render(const std::vector<DiffLine> &diff)
{
    QStringList out;
    for (const DiffLine &l : diff)
        out << (l.op == DiffLine::Op::Same    ? QStringLiteral("=")
                : l.op == DiffLine::Op::Added ? QStringLiteral("+")
                                              : QStringLiteral("-")) +
                   QString::fromStdString(l.text);
    return out;
}

QStringList split(const char *s)
{
    return QString::fromUtf8(s).split(QLatin1Char(','), Qt::SkipEmptyParts);
}

std::vector<std::string> lines(const QStringList &list)
{
    std::vector<std::string> out;
    for (const QString &l : list)
        out.push_back(l.toStdString());
    return out;
}

} // namespace

void TestLineDiff::diff_data()
{
    QTest::addColumn<QStringList>("before");
    QTest::addColumn<QStringList>("after");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("identical") << split("a,b,c") << split("a,b,c") << split("=a,=b,=c");
    QTest::newRow("both-empty") << QStringList() << QStringList() << QStringList();
    QTest::newRow("piece-arrived") << QStringList() << split("h,x") << split("+h,+x");
    QTest::newRow("piece-went-away") << split("h,x") << QStringList() << split("-h,-x");
    QTest::newRow("line-added-in-a-bucket")
        << split("h,f1,f2,n") << split("h,f1,f2,f3,n") << split("=h,=f1,=f2,+f3,=n");
    QTest::newRow("line-replaced") << split("a,b,c") << split("a,x,c") << split("=a,-b,+x,=c");
    QTest::newRow("moved-line-is-remove-plus-add") << split("a,b,c") << split("b,c,a") << split("-a,=b,=c,+a");
}

void TestLineDiff::diff()
{
    QFETCH(QStringList, before);
    QFETCH(QStringList, after);
    QFETCH(QStringList, expected);
    const std::vector<DiffLine> d = diffLines(lines(before), lines(after));
    QCOMPARE(render(d), expected);
    const DiffStats stats = diffStats(d);
    QCOMPARE(stats.same + stats.removed, int(before.size()));
    QCOMPARE(stats.same + stats.added, int(after.size()));
}

void TestLineDiff::reconstructsBothSides()
{
    // A bigger case: every old line is found at its old number, every new one at its new number.
    QStringList before, after;
    for (int i = 0; i < 200; ++i) {
        before << QStringLiteral("line %1").arg(i);
        if (i % 7 != 0)
            after << QStringLiteral("line %1").arg(i);
        if (i % 11 == 0)
            after << QStringLiteral("new %1").arg(i);
    }
    const std::vector<DiffLine> d = diffLines(lines(before), lines(after));
    QStringList oldSide, newSide;
    for (const DiffLine &l : d) {
        const QString text = QString::fromStdString(l.text);
        if (l.op != DiffLine::Op::Added) {
            QCOMPARE(before.at(l.oldLine), text);
            oldSide << text;
        }
        if (l.op != DiffLine::Op::Removed) {
            QCOMPARE(after.at(l.newLine), text);
            newSide << text;
        }
    }
    QCOMPARE(oldSide, before);
    QCOMPARE(newSide, after);
    QCOMPARE(diffStats(d).removed, 29); // 0, 7, ..., 196
}

void TestLineDiff::splitLinesKeepsEmptyLines()
{
    QCOMPARE(splitLines(""), std::vector<std::string>{""});
    QCOMPARE(splitLines("a\n\nb\n"), (std::vector<std::string>{"a", "", "b", ""}));
}

QTEST_APPLESS_MAIN(TestLineDiff)
#include "tst_linediff.moc"
