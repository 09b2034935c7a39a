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
    void rowsFoldUnchangedRuns_data();
    void rowsFoldUnchangedRuns();
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

void TestLineDiff::rowsFoldUnchangedRuns_data()
{
    // `ops`: one character a diff line ('=' same, '+' added, '-' removed); `expected`: a line shown is its index, a
    // fold is [first:count].
    QTest::addColumn<QString>("ops");
    QTest::addColumn<int>("context");
    QTest::addColumn<QList<int>>("unfolded");
    QTest::addColumn<QString>("expected");
    QTest::newRow("empty") << "" << 3 << QList<int>() << "";
    QTest::newRow("unchanged-one-line") << "=" << 3 << QList<int>() << "0";
    QTest::newRow("unchanged") << "======" << 3 << QList<int>() << "[0:6]";
    QTest::newRow("unchanged-unfolded") << "===" << 3 << QList<int>{0} << "0,1,2";
    QTest::newRow("arrived") << "+++" << 3 << QList<int>() << "0,1,2";
    QTest::newRow("change-in-the-middle")
        << "==========+==========" << 3 << QList<int>() << "[0:7],7,8,9,10,11,12,13,[14:7]";
    QTest::newRow("leading-run-unfolded")
        << "==========+==========" << 3 << QList<int>{0} << "0,1,2,3,4,5,6,7,8,9,10,11,12,13,[14:7]";
    QTest::newRow("gap-within-context") << "+====+" << 3 << QList<int>() << "0,1,2,3,4,5";
    QTest::newRow("gap-hiding-one-line-shows-it") << "+=======+" << 3 << QList<int>() << "0,1,2,3,4,5,6,7,8";
    QTest::newRow("gap-hiding-two-lines-folds") << "+========+" << 3 << QList<int>() << "0,1,2,3,[4:2],6,7,8,9";
    QTest::newRow("replaced-line") << "====-+====" << 1 << QList<int>() << "[0:3],3,4,5,6,[7:3]";
    QTest::newRow("no-context") << "==+==" << 0 << QList<int>() << "[0:2],2,[3:2]";
    QTest::newRow("no-context-one-line-each-side") << "=+=" << 0 << QList<int>() << "0,1,2";
    QTest::newRow("an-unfolded-index-not-a-fold-changes-nothing")
        << "==========+" << 2 << QList<int>{3} << "[0:8],8,9,10";
}

void TestLineDiff::rowsFoldUnchangedRuns()
{
    QFETCH(QString, ops);
    QFETCH(int, context);
    QFETCH(QList<int>, unfolded);
    QFETCH(QString, expected);
    std::vector<DiffLine> diff;
    for (const QChar c : ops)
        diff.push_back({c == u'='   ? DiffLine::Op::Same
                        : c == u'+' ? DiffLine::Op::Added
                                    : DiffLine::Op::Removed,
                        -1, -1, std::string()});
    const std::set<std::size_t> open(unfolded.cbegin(), unfolded.cend());
    QStringList rendered;
    std::size_t next = 0; // every line is shown or folded, once and in order
    for (const DiffRow &row : diffRows(diff, std::size_t(context), open)) {
        QCOMPARE(row.first, next);
        next += row.count;
        QVERIFY(row.fold || row.count == 1);
        rendered << (row.fold ? QStringLiteral("[%1:%2]").arg(row.first).arg(row.count) : QString::number(row.first));
    }
    QCOMPARE(next, diff.size());
    QCOMPARE(rendered.join(u','), expected);
}

QTEST_APPLESS_MAIN(TestLineDiff)
#include "tst_linediff.moc"
