// `tracefold-cli inspect FILE [--json]` as a user meets it (README "inspect", spec/recording.md §1.8): on a file it
// cannot read it exits 2 with exactly one line on stderr that starts with the file's path and says what was expected,
// prints nothing on stdout, never crashes or hangs, and never changes the file. On the samples it exits 0 and the
// JSON document has the types the README's schema documents.

#include <QByteArray>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

#ifndef TRACEFOLD_CLI
#error "TRACEFOLD_CLI must name the built tracefold-cli (tracefold_test_settings, tests/CMakeLists.txt)"
#endif

namespace {

constexpr int kTimeoutMs = 20000;

struct CliRun
{
    bool finished = false;
    QProcess::ExitStatus status = QProcess::CrashExit;
    int code = -1;
    QByteArray out, err;
    qint64 elapsedMs = 0;
};

CliRun runCli(const QStringList &args)
{
    CliRun r;
    QProcess p;
    QElapsedTimer timer;
    timer.start();
    p.start(QStringLiteral(TRACEFOLD_CLI), args);
    if (!p.waitForStarted(kTimeoutMs))
        return r;
    r.finished = p.waitForFinished(kTimeoutMs);
    if (!r.finished) {
        p.kill();
        p.waitForFinished(5000);
    }
    r.elapsedMs = timer.elapsed();
    r.status = p.exitStatus();
    r.code = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QString broken(const char *name)
{
    return QStringLiteral(TRACEFOLD_TEST_DATA "/broken/") + QString::fromUtf8(name);
}

QString sample(const char *name)
{
    return QStringLiteral(TRACEFOLD_TEST_DATA "/samples/") + QString::fromUtf8(name);
}

// What "the file was not modified" means here: same kind, mode, size, mtime (to the nanosecond) and bytes.
struct Fingerprint
{
    bool exists = false;
    mode_t mode = 0;
    off_t size = 0;
    struct timespec mtime
    {
    };
    bool hashed = false;
    QByteArray bytes;

    bool operator==(const Fingerprint &o) const
    {
        return exists == o.exists && mode == o.mode && size == o.size && mtime.tv_sec == o.mtime.tv_sec &&
               mtime.tv_nsec == o.mtime.tv_nsec && hashed == o.hashed && bytes == o.bytes;
    }
};

Fingerprint fingerprint(const QString &path)
{
    Fingerprint f;
    struct stat st
    {
    };
    const QByteArray native = QFile::encodeName(path);
    if (::stat(native.constData(), &st) != 0)
        return f;
    f.exists = true;
    f.mode = st.st_mode;
    f.size = st.st_size;
    f.mtime = st.st_mtim;
    if (S_ISREG(st.st_mode) && ::access(native.constData(), R_OK) == 0) {
        QFile file(path);
        if (file.open(QIODevice::ReadOnly)) {
            f.bytes = file.readAll();
            f.hashed = true;
        }
    }
    return f;
}

// The whole line, literally, except that a "(byte N)" position may also name its line and column
// ("(byte N, line L, column C)"): both forms name the position the §1.8 catalogue asks for.
QRegularExpression exactLine(const QString &expected)
{
    QString pattern = QRegularExpression::escape(expected);
    pattern.replace(QRegularExpression(QStringLiteral(R"re(\\\(byte\\ (\d+)\\\))re")),
                    QStringLiteral(R"re(\(byte \1(?:, line \d+, column \d+)?\))re"));
    return QRegularExpression(u'^' + pattern + u'$');
}

bool isValidUtf8(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes).toUtf8() == bytes;
}

// A JSON value of one of the named types ("string", "number", "bool", "null", "array", "object").
bool hasType(const QJsonValue &v, std::initializer_list<const char *> types)
{
    for (const char *t : types) {
        const QByteArray name(t);
        if ((name == "string" && v.isString()) || (name == "number" && v.isDouble()) ||
            (name == "bool" && v.isBool()) || (name == "null" && v.isNull()) || (name == "array" && v.isArray()) ||
            (name == "object" && v.isObject()))
            return true;
    }
    return false;
}

bool isOneOf(const QJsonValue &v, const QStringList &allowed)
{
    return v.isString() && allowed.contains(v.toString());
}

// calls[].<dotted path> as one array, for comparing a column of the call list at once.
QJsonArray callColumn(const QJsonArray &calls, const QString &path)
{
    QJsonArray out;
    for (const QJsonValue &c : calls) {
        QJsonValue v = c;
        for (const QString &step : path.split(u'.'))
            v = v.toObject().value(step);
        out.append(v);
    }
    return out;
}

QString compact(const QJsonValue &v)
{
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    return QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact));
}

} // namespace

class TestInspectCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void refusesBrokenFile_data();
    void refusesBrokenFile();
    void tornNdjsonLoadsWithWarning();
    void usageErrorsExitTwo();
    void samplesInspectJson_data();
    void samplesInspectJson();
    void samplesInspectTable_data();
    void samplesInspectTable();

private:
    void checkSchema(const QJsonObject &doc);

    QTemporaryDir m_tmp;
    QString m_directory, m_missing, m_unreadable, m_deep;
};

void TestInspectCli::initTestCase()
{
    QVERIFY2(QFile::exists(QStringLiteral(TRACEFOLD_CLI)), TRACEFOLD_CLI);
    QVERIFY(m_tmp.isValid());
    m_directory = m_tmp.filePath(QStringLiteral("a-directory.json"));
    QVERIFY(QDir().mkpath(m_directory));
    m_missing = m_tmp.filePath(QStringLiteral("does-not-exist.json"));
    QVERIFY(!QFile::exists(m_missing));

    m_unreadable = m_tmp.filePath(QStringLiteral("unreadable.json"));
    {
        QFile f(m_unreadable);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"events": []})");
    }
    QCOMPARE(::chmod(QFile::encodeName(m_unreadable).constData(), 0), 0);

    // 100 000 nested arrays: generated rather than committed. The parser must refuse it at the 513th level, not
    // recurse into it.
    m_deep = m_tmp.filePath(QStringLiteral("deep-100000.json"));
    {
        QFile f(m_deep);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"events": )");
        f.write(QByteArray(100000, '['));
        f.write(QByteArray(100000, ']'));
        f.write("}\n");
    }
}

void TestInspectCli::cleanupTestCase()
{
    // Let QTemporaryDir remove the file it could not otherwise open.
    ::chmod(QFile::encodeName(m_unreadable).constData(), 0600);
}

void TestInspectCli::refusesBrokenFile_data()
{
    QTest::addColumn<QString>("path");
    // The stderr line after the path (when `exact`), or a text the line must contain.
    QTest::addColumn<QString>("expect");
    QTest::addColumn<bool>("exact");

    const auto row = [](const char *name, const QString &path, const QString &expect, bool exact = true) {
        QTest::newRow(name) << path << expect << exact;
    };
    // §1.2 steps 2-4 and the §1.8 catalogue.
    row("empty", broken("empty.json"), ": empty file; expected an agentfootprint recording");
    row("whitespace only", broken("whitespace-only.json"), ": empty file; expected an agentfootprint recording");
    row("not JSON", broken("not-json.json"), ": expected a JSON object at byte 0, found text that is not JSON");
    row("top-level array", broken("top-level-array.json"), ": expected a JSON object at byte 0, found an array");
    row("top-level string", broken("top-level-string.json"), ": expected a JSON object at byte 0, found a string");
    row("truncated object", broken("truncated-object.json"),
        ": invalid JSON at byte 82 (line 1, column 83): expected ',' or '}' in object, found end of input");
    row("truncated in a string", broken("truncated-in-string.json"),
        ": invalid JSON at byte 21 (line 1, column 22): unterminated string");
    row("trailing garbage", broken("trailing-garbage.json"), ": unexpected data after the JSON value at byte 16");
    row("invalid escape (line break)", broken("invalid-escape-newline.json"),
        ": invalid JSON at byte 84 (line 1, column 85): invalid escape '\\' + byte 0x0A");
    row("deep nesting (1000, committed)", broken("deep-nesting.json"),
        ": invalid JSON at byte 522 (line 1, column 523): nesting deeper than 512 levels");
    row("deep nesting (100000, generated)", m_deep,
        ": invalid JSON at byte 522 (line 1, column 523): nesting deeper than 512 levels");
    row("invalid UTF-8", broken("invalid-utf8.json"),
        ": invalid JSON at byte 86 (line 1, column 87): invalid UTF-8 in string");
    row("raw surrogate bytes", broken("raw-surrogate-bytes.json"),
        ": invalid JSON at byte 84 (line 1, column 85): invalid UTF-8 in string");

    // Wrong types at each key the loader reads.
    row("events not an array", broken("events-not-array.json"),
        ": events (byte 11): expected an array, found an object");
    row("event not an object", broken("event-not-object.json"),
        ": events[1] (byte 72): expected an event with a string \"type\"");
    row("event without type", broken("event-without-type.json"),
        ": events[1] (byte 57): expected an event with a string \"type\"");
    row("event type not a string", broken("event-type-not-string.json"),
        ": events[1] (byte 57): expected an event with a string \"type\"");
    row("payload not an object", broken("payload-not-object.json"),
        ": events[0].payload (byte 67): expected an object, found an array");
    row("meta not an object", broken("meta-not-object.json"),
        ": events[0].meta (byte 79): expected an object, found a string");
    row("snapshot not an object", broken("snapshot-not-object.json"),
        ": snapshot (byte 27): expected an object, found an array");
    row("snapshot.commitLog not an array", broken("snapshot-commitlog-not-array.json"),
        ": snapshot.commitLog (byte 41): expected an array, found an object");
    row("snapshot.initialState not an object", broken("snapshot-initialstate-not-object.json"),
        ": snapshot.initialState (byte 61): expected an object, found a string");
    row("snapshot.subflowResults not an object", broken("snapshot-subflowresults-not-object.json"),
        ": snapshot.subflowResults (byte 63): expected an object, found an array");
    row("structure not an object", broken("structure-not-object.json"),
        ": structure (byte 28): expected an object, found a string");
    row("envelope: unknown format", broken("envelope-unknown-format.json"),
        ": unsupported recording format \"agentfootprint.recording.v2\"; this version of Tracefold reads "
        "agentfootprint.recording.v1");
    row("envelope: format not a string", broken("envelope-format-not-string.json"),
        ": unsupported recording format (a number, not a string); this version of Tracefold reads "
        "agentfootprint.recording.v1");
    row("envelope without recording", broken("envelope-without-recording.json"),
        ": envelope member \"recording.events\" is missing or not an array");
    row("envelope: recording.events not an array", broken("envelope-recording-events-not-array.json"),
        ": envelope member \"recording.events\" is missing or not an array");
    row("envelope: run not an object", broken("envelope-run-not-object.json"),
        ": run (byte 65): expected an object, found a string");
    row("envelope: event not an object", broken("envelope-event-not-object.json"),
        ": recording.events[1] (byte 157): expected an event with a string \"type\"");
    row("reference: served not objects", broken("reference-served-not-objects.json"),
        ": served[1] (byte 55): expected an object, found a string");
    row("boundary capture: events not an array", broken("boundary-events-not-array.json"),
        ": events (byte 116): expected an array, found an object");

    // Shapes refused by name (§1.1 F, G, H) and unrecognised objects.
    row("unknown keys", broken("unknown-keys.json"),
        ": not an agentfootprint recording; found top-level keys [name, steps, result]");
    row("unknown keys with control characters", broken("unknown-keys-control-chars.json"),
        ": not an agentfootprint recording; found top-level keys [a\\u000ab, c\\u001b[31m]");
    row("agentfootprint Trace", broken("trace.json"),
        ": this is an agentfootprint Trace (version 1); it carries no typed events or per-call data — export a "
        "recording (recordRun) instead");
    row("audit bundle", broken("audit-bundle.json"),
        ": this is an audit bundle (agentfootprint.audit.v1); its payloads are bounded and cannot be replayed");
    row("zip", broken("bug-report.zip"), "zip archive", false);

    // NDJSON (§1.7): <file>:<line>:<column>: expected one JSON event object.
    row("NDJSON bad middle line", broken("ndjson-bad-middle-line.ndjson"),
        ":2:68: expected one JSON event object (expected a member name (a string), found '}')");
    row("NDJSON line without type", broken("ndjson-line-without-type.ndjson"),
        ":2:1: expected one JSON event object (no string \"type\")");
    row("NDJSON payload not an object", broken("ndjson-payload-not-object.ndjson"),
        ":3:51: expected one JSON event object (\"payload\" is a JSON string, not an object)");

    // Files that cannot be opened (MappedFile).
    row("directory", m_directory, ": is a directory; expected an agentfootprint recording file");
    row("missing", m_missing, ": cannot open: No such file or directory");
    row("unreadable", m_unreadable, ": cannot open: Permission denied");
}

void TestInspectCli::refusesBrokenFile()
{
    QFETCH(QString, path);
    QFETCH(QString, expect);
    QFETCH(bool, exact);

    if (path == m_unreadable && (::geteuid() == 0 || ::access(QFile::encodeName(path).constData(), R_OK) == 0))
        QSKIP("running with privileges that read a chmod 000 file (root in CI): a permission error cannot be "
              "provoked here");

    const Fingerprint before = fingerprint(path);
    for (const QStringList &extra : {QStringList(), QStringList{QStringLiteral("--json")}}) {
        const QStringList args = QStringList{QStringLiteral("inspect"), path} + extra;
        const CliRun r = runCli(args);
        const QByteArray mode = extra.isEmpty() ? QByteArray("table") : QByteArray("--json");
        qDebug("%s %s: %lld ms", mode.constData(), qPrintable(QFileInfo(path).fileName()), r.elapsedMs);
        QVERIFY2(r.finished, "inspect " + mode + " did not finish within the timeout");
        QVERIFY2(r.status == QProcess::NormalExit, "inspect " + mode + " crashed: " + r.err);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.out.isEmpty(), "stdout: " + r.out.left(500));

        // Exactly one line, newline-terminated, printable and valid UTF-8.
        QVERIFY2(r.err.endsWith('\n'), "stderr: " + r.err);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(!r.err.contains('\r'), "stderr: " + r.err);
        QVERIFY2(isValidUtf8(r.err), "stderr is not valid UTF-8: " + r.err.toHex());
        for (const char c : r.err.chopped(1))
            QVERIFY2(static_cast<unsigned char>(c) >= 0x20 && c != 0x7F, "control byte on stderr: " + r.err.toHex());

        const QString line = QString::fromUtf8(r.err.chopped(1));
        QVERIFY2(line.startsWith(path + u':'), qPrintable(line));
        if (exact)
            QVERIFY2(exactLine(path + expect).match(line).hasMatch(),
                     qPrintable("got      " + line + "\nexpected " + path + expect));
        else
            QVERIFY2(line.contains(expect), qPrintable(line));
    }
    QVERIFY2(fingerprint(path) == before, "inspect changed the file");
}

void TestInspectCli::tornNdjsonLoadsWithWarning()
{
    const QString path = broken("ndjson-torn-last-line.ndjson");
    const Fingerprint before = fingerprint(path);

    const CliRun table = runCli({QStringLiteral("inspect"), path});
    QVERIFY(table.finished);
    QCOMPARE(table.status, QProcess::NormalExit);
    QCOMPARE(table.code, 0);
    QVERIFY2(table.err.isEmpty(), table.err);
    QVERIFY(table.out.startsWith(QFile::encodeName(path) + ": "));

    const CliRun js = runCli({QStringLiteral("inspect"), path, QStringLiteral("--json")});
    QVERIFY(js.finished);
    QCOMPARE(js.status, QProcess::NormalExit);
    QCOMPARE(js.code, 0);
    QVERIFY2(js.err.isEmpty(), js.err);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(js.out, &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    const QJsonObject o = doc.object();
    QCOMPARE(o.value("format").toString(), QStringLiteral("ndjson"));
    QCOMPARE(o.value("events").toDouble(), 2.0); // the two complete lines; the torn third is dropped
    QCOMPARE(o.value("runId").toString(), QStringLiteral("run-1-1"));
    QVERIFY2(o.value("warnings").toArray().contains(QStringLiteral("line 3: last line is incomplete and was ignored")),
             qPrintable(compact(o.value("warnings"))));
    QVERIFY(fingerprint(path) == before);
}

void TestInspectCli::usageErrorsExitTwo()
{
    for (const QStringList &args :
         {QStringList{QStringLiteral("inspect")},
          QStringList{QStringLiteral("inspect"), sample("lens-tool-progress-turn.json"), QStringLiteral("extra")},
          QStringList{QStringLiteral("inspect"), QStringLiteral("--jsn"), sample("lens-tool-progress-turn.json")},
          QStringList{QStringLiteral("inspect"), QStringLiteral("--help"), QStringLiteral("--json")}}) {
        const CliRun r = runCli(args);
        QVERIFY(r.finished);
        QCOMPARE(r.status, QProcess::NormalExit);
        QCOMPARE(r.code, 2);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err, QByteArray("usage: tracefold-cli inspect FILE [--json]\n"));
    }
    // Asked for, the overview is the answer, on standard output, for any command.
    for (const QString &command : {QStringLiteral("inspect"), QStringLiteral("conform"), QStringLiteral("follow")}) {
        const CliRun r = runCli({command, QStringLiteral("--help")});
        QVERIFY(r.finished);
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith("usage: tracefold-cli COMMAND [ARGS]\n") && r.out.contains("  inspect FILE"), r.out);
        QVERIFY(r.err.isEmpty());
    }
    // A command that does not exist is said to be unknown, with or without --help.
    const CliRun unknown = runCli({QStringLiteral("inspekt"), QStringLiteral("--help")});
    QCOMPARE(unknown.code, 2);
    QVERIFY(unknown.err.startsWith("tracefold-cli: unknown command 'inspekt'\n"));
    const CliRun conform = runCli({QStringLiteral("conform"), QStringLiteral("finding"), QStringLiteral("x.jsonl")});
    QCOMPARE(conform.code, 2);
    QCOMPARE(conform.err, QByteArray("usage: tracefold-cli conform findings|commitlog FILE.jsonl\n"));
}

void TestInspectCli::checkSchema(const QJsonObject &doc)
{
    const auto need = [](const QJsonObject &o, const char *key, std::initializer_list<const char *> types,
                         const QString &where) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            QTest::qFail(qPrintable(where + "." + key + " is missing"), __FILE__, __LINE__);
        else if (!hasType(v, types))
            QTest::qFail(qPrintable(where + "." + key + " has the wrong type: " + compact(v)), __FILE__, __LINE__);
        return v;
    };
    QCOMPARE(doc.value("schema").toDouble(), 1.0);
    need(doc, "tracefold", {"string"}, "doc");
    need(doc, "file", {"string"}, "doc");
    QVERIFY(isOneOf(need(doc, "format", {"string"}, "doc"),
                    {"recording", "envelope", "reference", "boundary-capture", "ndjson"}));
    need(doc, "runId", {"string", "null"}, "doc");
    need(doc, "model", {"string", "null"}, "doc");
    need(doc, "provider", {"string", "null"}, "doc");
    QVERIFY(
        isOneOf(need(doc, "foldBasis", {"string"}, "doc"), {"initial+log", "log-only", "subflow-logs", "events-only"}));
    const QJsonValue react = need(doc, "reactMode", {"string", "null"}, "doc");
    QVERIFY(react.isNull() || isOneOf(react, {"dynamic", "dynamic-grouped"}));
    need(doc, "armed", {"bool"}, "doc");
    need(doc, "packed", {"bool"}, "doc");
    need(doc, "redaction", {"bool"}, "doc");
    need(doc, "events", {"number"}, "doc");
    need(doc, "finalAnswer", {"string", "null"}, "doc");
    for (const QJsonValue &g : need(doc, "gaps", {"array"}, "doc").toArray()) {
        QVERIFY2(g.isObject(), qPrintable(compact(g)));
        const QJsonObject o = g.toObject();
        need(o, "gap", {"string"}, "gaps[]");
        QVERIFY(isOneOf(need(o, "kind", {"string"}, "gaps[]"), {"excuse", "missing", "caveat", "note"}));
        for (const QJsonValue &f : need(o, "fields", {"array"}, "gaps[]").toArray())
            QVERIFY(f.isString());
        need(o, "why", {"string"}, "gaps[]");
        if (o.contains("cause"))
            QVERIFY(o.value("cause").isString());
    }
    for (const QJsonValue &w : need(doc, "warnings", {"array"}, "doc").toArray())
        QVERIFY(w.isString());
    const QJsonObject hr = need(doc, "hitRate", {"object"}, "doc").toObject();
    need(hr, "rate", {"number", "null"}, "hitRate");
    need(hr, "measuredCalls", {"number"}, "hitRate");
    need(hr, "unmeasuredCalls", {"number"}, "hitRate");
    if (hr.contains("reason"))
        QVERIFY(hr.value("reason").isString());

    const QJsonArray calls = need(doc, "calls", {"array"}, "doc").toArray();
    for (qsizetype i = 0; i < calls.size(); ++i) {
        QVERIFY(calls.at(i).isObject());
        const QJsonObject c = calls.at(i).toObject();
        const QString at = QStringLiteral("calls[%1]").arg(i);
        const QJsonValue epoch = need(c, "epoch", {"number"}, at);
        QVERIFY2(epoch.toDouble() >= 1 && epoch.toDouble() == double(epoch.toInt()), qPrintable(at));
        need(c, "callRuntimeStageId", {"string"}, at);
        need(c, "messageCount", {"number", "null"}, at);
        for (const QJsonValue &id : need(c, "collapsed", {"array"}, at).toArray())
            QVERIFY(id.isString());
        const QJsonValue piece = need(c, "piece", {"object", "null"}, at);
        if (piece.isObject()) {
            const QJsonObject p = piece.toObject();
            need(p, "utf16Length", {"number"}, at + ".piece");
            need(p, "utf8Bytes", {"number"}, at + ".piece");
            need(p, "changedSincePrevious", {"bool"}, at + ".piece");
            need(p, "linesAdded", {"number"}, at + ".piece");
            need(p, "linesRemoved", {"number"}, at + ".piece");
        }
        need(c, "ledgerRows", {"number"}, at);
        need(c, "ledgerChanged", {"bool"}, at);
        const QJsonObject marks = need(c, "ledgerMarks", {"object"}, at).toObject();
        QCOMPARE(marks.keys().size(), 7);
        for (const char *mark : {"new", "superseded", "conflict", "contingent", "unsettled", "malformed", "not folded"})
            need(marks, mark, {"number"}, at + ".ledgerMarks");
        const QJsonObject cache = need(c, "cache", {"object"}, at).toObject();
        need(cache, "prefixReusable", {"bool", "null"}, at + ".cache");
        need(cache, "systemUnchanged", {"bool", "null"}, at + ".cache");
        for (const char *k : {"cacheRead", "cacheWrite", "input", "output"})
            need(cache, k, {"number", "null"}, at + ".cache");
        QVERIFY(
            isOneOf(need(cache, "verdict", {"string"}, at + ".cache"), {"hit", "write-only", "miss", "unmeasured"}));
        const QJsonValue scheme = need(cache, "transformHashScheme", {"string", "null"}, at + ".cache");
        QVERIFY(scheme.isNull() || isOneOf(scheme, {"chain-v1", "legacy", "unknown"}));
        for (const QJsonValue &v : need(c, "verification", {"array"}, at).toArray()) {
            QVERIFY(v.isObject());
            const QJsonObject o = v.toObject();
            need(o, "part", {"string"}, at + ".verification[]");
            QVERIFY(isOneOf(need(o, "status", {"string"}, at + ".verification[]"),
                            {"verified", "reconstructed", "damaged", "not-on-record", "redacted"}));
            need(o, "reason", {"string"}, at + ".verification[]");
        }
        need(c, "damaged", {"bool"}, at);
        for (const QJsonValue &g : need(c, "gaps", {"array"}, at).toArray())
            QVERIFY(g.isString());
    }
}

void TestInspectCli::samplesInspectJson_data()
{
    QTest::addColumn<QString>("path");
    // Expected values: a top-level key, or "calls.<path>" for the column of that member over the call list.
    QTest::addColumn<QJsonObject>("expected");
    const QJsonValue null = QJsonValue::Null;

    QTest::newRow("demo-turn") << sample("agentfootprint-demo-turn.json")
                               << QJsonObject{{"format", "boundary-capture"},
                                              {"runId", "run-1785158793554-1"},
                                              {"foldBasis", "subflow-logs"},
                                              {"reactMode", null},
                                              {"armed", false},
                                              {"events", 84},
                                              {"model", "mock-1"},
                                              {"provider", "mock"},
                                              {"calls.epoch", QJsonArray{1, 2, 3, 4}},
                                              {"calls.callRuntimeStageId",
                                               QJsonArray{"call-llm#18", "call-llm#40", "call-llm#62", "call-llm#84"}},
                                              {"calls.messageCount", QJsonArray{1, 3, 5, 7}},
                                              {"calls.piece", QJsonArray{null, null, null, null}},
                                              {"calls.ledgerRows", QJsonArray{0, 0, 0, 0}},
                                              {"calls.cache.input", QJsonArray{97, 122, 147, 180}},
                                              {"calls.cache.output", QJsonArray{0, 0, 0, 15}},
                                              {"calls.cache.cacheRead", QJsonArray{null, null, null, null}},
                                              {"calls.cache.systemUnchanged", QJsonArray{null, true, true, true}},
                                              {"calls.cache.prefixReusable", QJsonArray{null, true, true, true}}};
    QTest::newRow("lens-tool-progress") << sample("lens-tool-progress-turn.json")
                                        << QJsonObject{{"format", "recording"},
                                                       {"runId", "run-1787172385228-1"},
                                                       {"foldBasis", "events-only"},
                                                       {"reactMode", "dynamic"},
                                                       {"armed", false},
                                                       {"events", 79},
                                                       {"model", "mock"},
                                                       {"provider", "mock"},
                                                       {"calls.epoch", QJsonArray{1, 2, 3}},
                                                       {"calls.callRuntimeStageId",
                                                        QJsonArray{"call-llm#18", "call-llm#40", "call-llm#62"}},
                                                       {"calls.messageCount", QJsonArray{1, 3, 5}},
                                                       {"calls.piece", QJsonArray{null, null, null}},
                                                       {"calls.cache.input", QJsonArray{24, 42, 63}},
                                                       {"calls.cache.output", QJsonArray{9, 9, 19}},
                                                       {"calls.cache.cacheWrite", QJsonArray{null, null, null}},
                                                       {"calls.cache.systemUnchanged", QJsonArray{null, true, true}},
                                                       {"calls.cache.prefixReusable", QJsonArray{null, true, true}}};
    QTest::newRow("lens-skill-route") << sample("lens-skill-route-refusal.json")
                                      << QJsonObject{
                                             {"format", "recording"},
                                             {"runId", "run-1786766876536-1"},
                                             {"foldBasis", "events-only"},
                                             {"reactMode", null},
                                             {"events", 102},
                                             {"calls.epoch", QJsonArray{1, 2, 3, 4}},
                                             {"calls.callRuntimeStageId",
                                              QJsonArray{"call-llm#19", "call-llm#42", "call-llm#65", "call-llm#88"}},
                                             {"calls.messageCount", QJsonArray{1, 3, 5, 7}},
                                             {"calls.piece", QJsonArray{null, null, null, null}},
                                             {"calls.cache.input", QJsonArray{28, 65, 98, 120}},
                                             {"calls.cache.output", QJsonArray{9, 9, 6, 10}},
                                             {"calls.cache.systemUnchanged", QJsonArray{null, true, false, false}},
                                             {"calls.cache.prefixReusable", QJsonArray{null, true, false, false}}};
    QTest::newRow("reference")
        << sample("agentfootprint-reference-agent-findings.json")
        << QJsonObject{{"format", "reference"},
                       {"runId", null},
                       {"foldBasis", "log-only"},
                       {"armed", true},
                       {"events", 0},
                       {"model", "mock"},
                       {"provider", "byte-identity-mock"},
                       {"finalAnswer", R"({"done":true})"},
                       {"calls.epoch", QJsonArray{1, 2, 3}},
                       {"calls.callRuntimeStageId", QJsonArray{"call-llm#18", "call-llm#38", "call-llm#58"}},
                       {"calls.messageCount", QJsonArray{1, 3, 5}},
                       {"calls.collapsed", QJsonArray{QJsonArray{}, QJsonArray{}, QJsonArray{}}},
                       {"calls.piece", QJsonArray{null, null,
                                                  QJsonObject{{"utf16Length", 878},
                                                              {"utf8Bytes", 883},
                                                              {"changedSincePrevious", true},
                                                              {"linesAdded", 11},
                                                              {"linesRemoved", 0}}}},
                       {"calls.ledgerRows", QJsonArray{0, 1, 3}},
                       {"calls.ledgerChanged", QJsonArray{false, true, true}},
                       {"calls.gaps", QJsonArray{QJsonArray{"no-fold-base", "cache-transform", "provider-defaults"},
                                                 QJsonArray{"no-fold-base", "cache-transform", "provider-defaults"},
                                                 QJsonArray{"no-fold-base", "cache-transform", "provider-defaults"}}},
                       {"calls.cache.input", QJsonArray{null, null, null}},
                       {"calls.cache.verdict", QJsonArray{"unmeasured", "unmeasured", "unmeasured"}},
                       {"calls.cache.systemUnchanged", QJsonArray{null, true, false}},
                       // The alpha_tool schema moves every call (the offer of nameable ids), so the prefix never holds.
                       {"calls.cache.prefixReusable", QJsonArray{null, false, false}}};
}

void TestInspectCli::samplesInspectJson()
{
    QFETCH(QString, path);
    QFETCH(QJsonObject, expected);
    const Fingerprint before = fingerprint(path);
    const CliRun r = runCli({QStringLiteral("inspect"), path, QStringLiteral("--json")});
    QVERIFY(r.finished);
    QCOMPARE(r.status, QProcess::NormalExit);
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.isEmpty(), r.err);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QVERIFY(doc.isObject());
    const QJsonObject o = doc.object();
    checkSchema(o);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(o.value("file").toString(), path);

    for (auto it = expected.begin(); it != expected.end(); ++it) {
        const QJsonValue actual = it.key().startsWith(QLatin1String("calls."))
                                      ? QJsonValue(callColumn(o.value("calls").toArray(), it.key().mid(6)))
                                      : o.value(it.key());
        QVERIFY2(actual == it.value(),
                 qPrintable(it.key() + ": got " + compact(actual) + ", expected " + compact(it.value())));
    }

    // No sample has a usable receipt hash, so nothing is Verified and nothing is Damaged; without a receipt the
    // receipt-only fields are Not on record and the call says why (§6.6, §10).
    const QJsonArray calls = o.value("calls").toArray();
    QVERIFY(!calls.isEmpty());
    const bool reference = o.value("format").toString() == QLatin1String("reference");
    for (const QJsonValue &c : calls) {
        QCOMPARE(c.toObject().value("damaged").toBool(true), false);
        QStringList statuses;
        for (const QJsonValue &v : c.toObject().value("verification").toArray())
            statuses << v.toObject().value("status").toString();
        QVERIFY2(!statuses.contains(QStringLiteral("verified")) && !statuses.contains(QStringLiteral("damaged")),
                 qPrintable(statuses.join(u',')));
        QVERIFY(statuses.contains(QStringLiteral("reconstructed")));
        const QJsonArray gaps = c.toObject().value("gaps").toArray();
        QCOMPARE(gaps.contains(QStringLiteral("no-receipt-on-chart")), !reference);
    }
    QStringList runGaps;
    for (const QJsonValue &g : o.value("gaps").toArray())
        runGaps << g.toObject().value("gap").toString();
    // Folded logs without initialState (the reference's run log, the demo's subflow logs) say "no fold base"; the
    // events-only samples have no log to fold at all and say "no run log" instead.
    const bool folded = reference || o.value("format").toString() == QLatin1String("boundary-capture");
    QCOMPARE(runGaps.contains(QStringLiteral("no-fold-base")), folded);
    QCOMPARE(runGaps.contains(QStringLiteral("no-run-log")), !reference);
    QVERIFY(fingerprint(path) == before);
}

void TestInspectCli::samplesInspectTable_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("summary");
    QTest::newRow("demo-turn") << sample("agentfootprint-demo-turn.json")
                               << QStringLiteral("4 calls, run run-1785158793554-1, fold subflow-logs");
    QTest::newRow("lens-tool-progress") << sample("lens-tool-progress-turn.json")
                                        << QStringLiteral("3 calls, run run-1787172385228-1, fold events-only");
    QTest::newRow("lens-skill-route") << sample("lens-skill-route-refusal.json")
                                      << QStringLiteral("4 calls, run run-1786766876536-1, fold events-only");
    QTest::newRow("reference") << sample("agentfootprint-reference-agent-findings.json")
                               << QStringLiteral("3 calls, run (not on record), fold log-only");
}

void TestInspectCli::samplesInspectTable()
{
    QFETCH(QString, path);
    QFETCH(QString, summary);
    const CliRun r = runCli({QStringLiteral("inspect"), path});
    QVERIFY(r.finished);
    QCOMPARE(r.status, QProcess::NormalExit);
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.isEmpty(), r.err);
    const QString first = QString::fromUtf8(r.out).section(u'\n', 0, 0);
    QVERIFY2(first.startsWith(path + QStringLiteral(": ")) && first.endsWith(summary), qPrintable(first));
}

QTEST_APPLESS_MAIN(TestInspectCli)
#include "tst_inspectcli.moc"
