// `tracefold-cli audit FILE [--json] [--fail-on warning|error]` as a CI job meets it: exit 0 when nothing at or above
// the fail-on severity was found, 1 when something was, 2 with one stderr line on unreadable input or bad usage; the
// JSON document read back with Qt's own JSON reader.

#include "../clirun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using tf::testsupport::cli;

namespace {

QString sample(const char *name)
{
    return QStringLiteral(TRACEFOLD_TEST_DATA "/samples/") + QString::fromUtf8(name);
}

} // namespace

class TestAuditCli : public QObject
{
    Q_OBJECT

private slots:
    void exitCodes_data();
    void exitCodes();
    void unreadableInput_data();
    void unreadableInput();
    void jsonDocument();
    void jsonOfACleanRun();
    void textOutput();
};

void TestAuditCli::exitCodes_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    const QString clean = sample("real-9.62/dev-2-conversation.json");
    const QString crash = sample("real-9.62/dev-4-crash.json");              // errors
    const QString tools = sample("real-9.62/dev-3-tool-errors.json");        // warnings only
    const QString paused = sample("real-9.62/dev-7-paused-or-limited.json"); // info only
    QTest::newRow("clean") << QStringList{"audit", clean} << 0;
    QTest::newRow("clean-fail-on-warning") << QStringList{"audit", clean, "--fail-on", "warning"} << 0;
    QTest::newRow("error") << QStringList{"audit", crash} << 1;
    QTest::newRow("error-json") << QStringList{"audit", crash, "--json"} << 1;
    QTest::newRow("warnings-default") << QStringList{"audit", tools} << 0;
    QTest::newRow("warnings-fail-on-error") << QStringList{"audit", "--fail-on", "error", tools} << 0;
    QTest::newRow("warnings-fail-on-warning") << QStringList{"audit", tools, "--fail-on", "warning"} << 1;
    QTest::newRow("info-fail-on-warning") << QStringList{"audit", paused, "--fail-on", "warning"} << 0;
    QTest::newRow("error-fail-on-warning") << QStringList{"audit", crash, "--json", "--fail-on", "warning"} << 1;
}

void TestAuditCli::exitCodes()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    const auto r = cli(args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY(r.err.isEmpty());
    QVERIFY(!r.out.isEmpty());
}

void TestAuditCli::unreadableInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("stderrStart");
    const QString broken = QStringLiteral(TRACEFOLD_TEST_DATA "/broken/truncated-object.json");
    const QString missing = QStringLiteral(TRACEFOLD_TEST_DATA "/broken/no-such-file.json");
    QTest::newRow("truncated") << QStringList{"audit", broken} << broken;
    QTest::newRow("truncated-json") << QStringList{"audit", broken, "--json"} << broken;
    QTest::newRow("missing") << QStringList{"audit", missing} << missing;
    QTest::newRow("no-file") << QStringList{"audit"} << QStringLiteral("usage: tracefold-cli audit");
    QTest::newRow("bad-fail-on") << QStringList{"audit", sample("real-9.62/dev-2-conversation.json"), "--fail-on",
                                                "info"}
                                 << QStringLiteral("usage: tracefold-cli audit");
    QTest::newRow("fail-on-without-value")
        << QStringList{"audit", sample("real-9.62/dev-2-conversation.json"), "--fail-on"}
        << QStringLiteral("usage: tracefold-cli audit");
    QTest::newRow("two-files") << QStringList{"audit", broken, broken} << QStringLiteral("usage: tracefold-cli audit");
}

void TestAuditCli::unreadableInput()
{
    QFETCH(QStringList, args);
    QFETCH(QString, stderrStart);
    const auto r = cli(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.out.isEmpty());
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.err.endsWith('\n'));
    QVERIFY2(QString::fromUtf8(r.err).startsWith(stderrStart), r.err.constData());
}

void TestAuditCli::jsonDocument()
{
    const QString file = sample("real-9.62/dev-4-crash.json");
    const auto r = cli({QStringLiteral("audit"), file, QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 1);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    const QJsonObject o = doc.object();
    QCOMPARE(o.keys(), (QStringList{"file", "problems", "schema"}));
    QCOMPARE(o.value("schema").toInt(), 1);
    QCOMPARE(o.value("file").toString(), file);
    const QJsonArray problems = o.value("problems").toArray();
    QCOMPARE(problems.size(), 2);
    const QJsonObject failed = problems[0].toObject();
    QCOMPARE(failed.keys(), (QStringList{"call", "message", "rule", "severity"}));
    QCOMPARE(failed.value("rule").toString(), QStringLiteral("run-failed"));
    QCOMPARE(failed.value("severity").toString(), QStringLiteral("error"));
    QVERIFY(failed.value("call").isNull());
    QVERIFY(failed.value("message").toString().startsWith(QStringLiteral("The AI call failed: 529 overloaded_error")));
    const QJsonObject noResponse = problems[1].toObject();
    QCOMPARE(noResponse.value("rule").toString(), QStringLiteral("no-response"));
    QCOMPARE(noResponse.value("call").toInt(), 3);
    QVERIFY(!noResponse.contains("part"));

    // A damaged receipt names its part; problems come in call order.
    QTemporaryDir dir;
    const QString damaged = dir.filePath(QStringLiteral("damaged.json"));
    QCOMPARE(cli({"generate", "--calls", "8", "--seed", "5", "--damage", "schema", "--damage-call", "6", "-o", damaged})
                 .exitCode,
             0);
    const auto d = cli({QStringLiteral("audit"), damaged, QStringLiteral("--json")});
    QCOMPARE(d.exitCode, 1);
    const QJsonArray list = QJsonDocument::fromJson(d.out).object().value("problems").toArray();
    QStringList parts;
    int previousCall = 0;
    for (const QJsonValue &v : list) {
        const QJsonObject p = v.toObject();
        const int call = p.value("call").isNull() ? 0 : p.value("call").toInt();
        QVERIFY(call >= previousCall);
        previousCall = call;
        if (p.value("rule").toString() == QLatin1String("receipt-damaged")) {
            QCOMPARE(call, 6);
            QCOMPARE(p.value("severity").toString(), QStringLiteral("error"));
            parts << p.value("part").toString();
        } else {
            QVERIFY(!p.contains("part"));
        }
    }
    QCOMPARE(parts, (QStringList{"tools.schema[lookup_port]", "requestMeasurement"}));
}

void TestAuditCli::jsonOfACleanRun()
{
    const auto r = cli({QStringLiteral("audit"), QStringLiteral("--json"), sample("lens-tool-progress-turn.json")});
    QCOMPARE(r.exitCode, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QVERIFY(o.value("problems").isArray());
    QCOMPARE(o.value("problems").toArray().size(), 0);
}

void TestAuditCli::textOutput()
{
    const QString file = sample("real-9.62/dev-3-tool-errors.json");
    const auto r = cli({QStringLiteral("audit"), file});
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[0].startsWith(file + QStringLiteral(": call 1: warning: pipeline_status (ci-1) threw")));
    QVERIFY(lines[0].endsWith(QStringLiteral(" [tool-error]")));
    QVERIFY(lines[1].startsWith(file + QStringLiteral(": call 3: warning: fetch_job_log (ci-4) threw")));
    QCOMPARE(lines[2], file + QStringLiteral(": 2 problems: 0 errors, 2 warnings, 0 info (4 calls)"));
}

QTEST_APPLESS_MAIN(TestAuditCli)
#include "tst_auditcli.moc"
