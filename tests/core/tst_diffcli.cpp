// `tracefold-cli diff A B [--json]` as a user meets it (README "Comparing two runs"): exit 0 when the runs were
// served the same and answered the same, 1 when they differ, 2 with one stderr line on unreadable input or bad
// arguments; the JSON document has exactly the keys and types the README documents, with 1-based call numbers.

#include "tests/clirun.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using tf::testsupport::cli;

namespace {

const QString kReal = QStringLiteral(TRACEFOLD_TEST_DATA "/samples/real-9.62/");

QStringList keysOf(const QJsonObject &o)
{
    QStringList keys = o.keys();
    keys.sort();
    return keys;
}

QStringList sorted(QStringList l)
{
    l.sort();
    return l;
}

} // namespace

class TestDiffCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void exitCodes_data();
    void exitCodes();
    void jsonShape_data();
    void jsonShape();
    void unreadable_data();
    void unreadable();
    void textSummary();
    void reportWithBaseline();
    void reportWithUnreadableBaseline();

private:
    QTemporaryDir m_dir;
    QString m_toolEdited, m_promptEdited;
};

void TestDiffCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QFile in(kReal + QStringLiteral("dev-2-conversation.json"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray text = in.readAll();
    const auto write = [&](const QString &name, QByteArray bytes, const QByteArray &from, const QByteArray &to) {
        QVERIFY(bytes.contains(from));
        bytes.replace(from, to);
        QFile out(m_dir.filePath(name));
        QVERIFY(out.open(QIODevice::WriteOnly));
        QCOMPARE(out.write(bytes), qint64(bytes.size()));
    };
    m_toolEdited = m_dir.filePath(QStringLiteral("tool.json"));
    m_promptEdited = m_dir.filePath(QStringLiteral("prompt.json"));
    write(QStringLiteral("tool.json"), text, "Corner Bakery 64.10", "Corner Bakery 69.10");
    write(QStringLiteral("prompt.json"), text, "How does that compare with February",
          "How does that compare with January");
}

void TestDiffCli::exitCodes_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<int>("code");
    const QString dev2 = kReal + QStringLiteral("dev-2-conversation.json");
    QTest::newRow("itself") << dev2 << dev2 << 0;
    QTest::newRow("itself-ndjson") << kReal + QStringLiteral("dev-6-events.ndjson")
                                   << kReal + QStringLiteral("dev-6-events.ndjson") << 0;
    QTest::newRow("tool-result-edited") << dev2 << QStringLiteral("tool.json") << 1;
    QTest::newRow("prompt-edited-reversed") << QStringLiteral("prompt.json") << dev2 << 1;
    QTest::newRow("another-task") << dev2 << kReal + QStringLiteral("dev-3-tool-errors.json") << 1;
}

void TestDiffCli::exitCodes()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(int, code);
    const auto path = [&](const QString &p) { return p.contains(QLatin1Char('/')) ? p : m_dir.filePath(p); };
    for (const QStringList &extra : {QStringList(), QStringList{QStringLiteral("--json")}}) {
        const auto r = cli(QStringList{QStringLiteral("diff"), path(a), path(b)} + extra);
        QCOMPARE(r.exitCode, code);
        QVERIFY(r.err.isEmpty());
        QVERIFY(!r.out.isEmpty());
    }
}

void TestDiffCli::jsonShape_data()
{
    QTest::addColumn<QString>("b");
    QTest::addColumn<QVariant>("firstA"); // 1-based call number, or null for no divergence
    QTest::addColumn<QString>("part");
    QTest::addColumn<int>("offset");
    QTest::newRow("itself") << kReal + QStringLiteral("dev-2-conversation.json") << QVariant() << QString() << -1;
    QTest::newRow("tool-result-edited") << QStringLiteral("tool.json") << QVariant(4) << QStringLiteral("messages[7]")
                                        << 68;
    QTest::newRow("prompt-edited") << QStringLiteral("prompt.json") << QVariant(3) << QStringLiteral("messages[4]")
                                   << 53;
}

void TestDiffCli::jsonShape()
{
    QFETCH(QString, b);
    QFETCH(QVariant, firstA);
    QFETCH(QString, part);
    QFETCH(int, offset);
    const QString a = kReal + QStringLiteral("dev-2-conversation.json");
    const QString bPath = b.contains(QLatin1Char('/')) ? b : m_dir.filePath(b);
    const auto r = cli({QStringLiteral("diff"), a, bPath, QStringLiteral("--json")});
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonObject root = doc.object();
    QCOMPARE(keysOf(root),
             sorted({QStringLiteral("schema"), QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("aligned"),
                     QStringLiteral("firstDivergence"), QStringLiteral("answers"), QStringLiteral("outcomes")}));
    QCOMPARE(root.value(QStringLiteral("schema")).toInt(), 1);
    for (const auto &[key, file] : {std::pair{QStringLiteral("a"), a}, std::pair{QStringLiteral("b"), bPath}}) {
        const QJsonObject run = root.value(key).toObject();
        QCOMPARE(keysOf(run), sorted({QStringLiteral("file"), QStringLiteral("calls")}));
        QCOMPARE(run.value(QStringLiteral("file")).toString(), file);
        QCOMPARE(run.value(QStringLiteral("calls")).toInt(), 7); // facts.json: 7 calls
    }
    const QJsonArray aligned = root.value(QStringLiteral("aligned")).toArray();
    QCOMPARE(aligned.size(), 7);
    bool allSame = true;
    for (int i = 0; i < aligned.size(); ++i) {
        const QJsonObject row = aligned.at(i).toObject();
        QCOMPARE(keysOf(row),
                 sorted({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("same"), QStringLiteral("parts")}));
        QCOMPARE(row.value(QStringLiteral("a")).toInt(), i + 1);
        QCOMPARE(row.value(QStringLiteral("b")).toInt(), i + 1);
        QVERIFY(row.value(QStringLiteral("same")).isBool());
        QVERIFY(row.value(QStringLiteral("parts")).isArray());
        const bool same = row.value(QStringLiteral("same")).toBool();
        allSame = allSame && same;
        // A pair served differently names the part first where it diverged first.
        if (!same && firstA.isValid() && i + 1 >= firstA.toInt())
            QCOMPARE(row.value(QStringLiteral("parts")).toArray().first().toString(), part);
        if (firstA.isValid())
            QCOMPARE(same, i + 1 < firstA.toInt());
    }
    const QJsonValue first = root.value(QStringLiteral("firstDivergence"));
    if (!firstA.isValid()) {
        QVERIFY(first.isNull());
        QVERIFY(allSame);
    } else {
        const QJsonObject f = first.toObject();
        QCOMPARE(keysOf(f), sorted({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("part"),
                                    QStringLiteral("utf16Offset")}));
        QCOMPARE(f.value(QStringLiteral("a")).toInt(), firstA.toInt());
        QCOMPARE(f.value(QStringLiteral("b")).toInt(), firstA.toInt());
        QCOMPARE(f.value(QStringLiteral("part")).toString(), part);
        QCOMPARE(f.value(QStringLiteral("utf16Offset")).toInt(), offset);
    }
    const QJsonObject answers = root.value(QStringLiteral("answers")).toObject();
    QCOMPARE(keysOf(answers), sorted({QStringLiteral("same"), QStringLiteral("a"), QStringLiteral("b")}));
    QVERIFY(answers.value(QStringLiteral("same")).toBool());
    QVERIFY(answers.value(QStringLiteral("a")).toString().startsWith(QStringLiteral("Done:")));
    const QJsonObject outcomes = root.value(QStringLiteral("outcomes")).toObject();
    QCOMPARE(keysOf(outcomes), sorted({QStringLiteral("a"), QStringLiteral("b")}));
    QCOMPARE(outcomes.value(QStringLiteral("a")).toObject().value(QStringLiteral("status")).toString(),
             QStringLiteral("completed"));
    QCOMPARE(r.exitCode, firstA.isValid() ? 1 : 0);
}

void TestDiffCli::unreadable_data()
{
    QTest::addColumn<QStringList>("args");
    const QString good = kReal + QStringLiteral("dev-2-conversation.json");
    const QString broken = QStringLiteral(TRACEFOLD_TEST_DATA "/broken/not-json.json");
    QTest::newRow("a-not-json") << QStringList{QStringLiteral("diff"), broken, good};
    QTest::newRow("b-not-json") << QStringList{QStringLiteral("diff"), good, broken};
    QTest::newRow("b-missing") << QStringList{QStringLiteral("diff"), good, QStringLiteral("/nonexistent/x.json")};
    QTest::newRow("b-truncated") << QStringList{QStringLiteral("diff"), good,
                                                QStringLiteral(TRACEFOLD_TEST_DATA "/broken/truncated-object.json"),
                                                QStringLiteral("--json")};
    QTest::newRow("one-file") << QStringList{QStringLiteral("diff"), good};
    QTest::newRow("unknown-option") << QStringList{QStringLiteral("diff"), good, good, QStringLiteral("--xml")};
}

void TestDiffCli::unreadable()
{
    QFETCH(QStringList, args);
    const auto r = cli(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.err.endsWith('\n'));
}

void TestDiffCli::textSummary()
{
    const auto r = cli({QStringLiteral("diff"), kReal + QStringLiteral("dev-2-conversation.json"), m_toolEdited});
    QCOMPARE(r.exitCode, 1);
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains(QStringLiteral("first divergence: A call 4, B call 4: messages[7] at UTF-16 offset 68")),
             qPrintable(out));
    QVERIFY(out.contains(QStringLiteral("Corner Bakery 64.10")));
    QVERIFY(out.contains(QStringLiteral("Corner Bakery 69.10")));
    QVERIFY(out.contains(QStringLiteral("differs: toolResults[top_merchants]")));
    QVERIFY(out.contains(QStringLiteral("the runs differ")));
}

// `report A --baseline B`: A's report with the comparison section.
void TestDiffCli::reportWithBaseline()
{
    const QString out = m_dir.filePath(QStringLiteral("compared.html"));
    const auto r = cli({QStringLiteral("report"), m_toolEdited, QStringLiteral("--baseline"),
                        kReal + QStringLiteral("dev-2-conversation.json"), QStringLiteral("-o"), out,
                        QStringLiteral("--no-notes")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.err.isEmpty());
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(f.readAll());
    QVERIFY(html.contains(QStringLiteral("<h2 id=\"comparison\">")));
    QVERIFY(html.contains(QStringLiteral("<code>messages[7]</code> from UTF-16 offset 68.")));
}

void TestDiffCli::reportWithUnreadableBaseline()
{
    const QString out = m_dir.filePath(QStringLiteral("never.html"));
    const auto r = cli({QStringLiteral("report"), m_toolEdited, QStringLiteral("--baseline"),
                        QStringLiteral(TRACEFOLD_TEST_DATA "/broken/not-json.json"), QStringLiteral("-o"), out,
                        QStringLiteral("--no-notes")});
    QCOMPARE(r.exitCode, 2);
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.err.contains("not-json.json"));
    QVERIFY(!QFile::exists(out));
    // --baseline without a file is a usage error.
    QCOMPARE(
        cli({QStringLiteral("report"), m_toolEdited, QStringLiteral("-o"), out, QStringLiteral("--baseline")}).exitCode,
        2);
}

QTEST_GUILESS_MAIN(TestDiffCli)
#include "tst_diffcli.moc"
