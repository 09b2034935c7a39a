// The report of a hostile recording, opened in a real browser: no script may run, no element may come from the
// data, and the hostile text must still be there to read. Chromium's --dump-dom runs the page's scripts before it
// serializes the DOM, so a sentinel that rewrote document.title or added an element would show in the dump.
#include "core/report/notes.h"

#include "hostilerecording.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace tf;

namespace {

QString chromium()
{
    const QString overridden = qEnvironmentVariable("TRACEFOLD_CHROMIUM");
    if (!overridden.isEmpty())
        return overridden;
    for (const char *name : {"chromium", "chromium-browser", "google-chrome"})
        if (const QString path = QStandardPaths::findExecutable(QString::fromLatin1(name)); !path.isEmpty())
            return path;
    return {};
}

QByteArray dumpDom(const QString &browser, const QString &file, const QString &profile)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("HOME"), profile);
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::SeparateChannels);
    p.start(browser, {QStringLiteral("--headless"), QStringLiteral("--no-sandbox"), QStringLiteral("--disable-gpu"),
                      QStringLiteral("--disable-quic"), QStringLiteral("--no-first-run"),
                      QStringLiteral("--disable-background-networking"), QStringLiteral("--disable-component-update"),
                      QStringLiteral("--disable-sync"), QStringLiteral("--disable-dev-shm-usage"),
                      QStringLiteral("--user-data-dir=") + profile, QStringLiteral("--virtual-time-budget=3000"),
                      QStringLiteral("--dump-dom"), QUrl::fromLocalFile(file).toString()});
    if (!p.waitForFinished(90000)) {
        p.kill();
        p.waitForFinished(5000);
        return {};
    }
    return p.readAllStandardOutput();
}

QByteArray withoutStyle(QByteArray dom)
{
    const qsizetype b = dom.indexOf("<style>");
    const qsizetype e = dom.indexOf("</style>");
    if (b >= 0 && e > b)
        dom.remove(b, e - b + 8);
    return dom;
}

} // namespace

class TestHostileReport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void noScriptRuns_data();
    void noScriptRuns();

private:
    QTemporaryDir m_dir;
    QString m_browser;
    QString m_report;
    QString m_reportWithoutCsp;
    std::size_t m_calls = 0;
    QByteArray m_title;
};

void TestHostileReport::initTestCase()
{
    m_browser = chromium();
    // CI installs Debian's chromium for this test (dev.sh TEST_PACKAGES); without it the check did not happen.
    if (m_browser.isEmpty())
        QFAIL("chromium not found: install the Debian package 'chromium' (./dev.sh test does)");
    QVERIFY(m_dir.isValid());

    const std::string bytes = testing::hostileRecording();
    QVERIFY(!bytes.empty());
    const QString recording = m_dir.filePath(QStringLiteral("hostile<b>run.json"));
    {
        QFile f(recording);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes.data(), qint64(bytes.size()));
    }
    const auto loaded = recording::loadRecordingFromBytes(bytes, recording.toStdString());
    QVERIFY(loaded.run);
    m_calls = loaded.run->calls.size();
    m_title = QByteArray("<title>Tracefold report \xE2\x80\x94 ") + QByteArray::fromStdString(loaded.run->runId) +
              QByteArray("</title>");

    // Notes with hostile text, a hostile created stamp, and an orphan whose stage id is hostile too.
    notes::Sidecar sidecar;
    sidecar.recording = notes::identityOf(*loaded.run);
    sidecar.bookmarks.push_back({notes::callRefOf(loaded.run->calls[1]), testing::hostilePayloads()[0]});
    for (const std::string &payload : testing::hostilePayloads())
        sidecar.notes.push_back(
            {{notes::TargetKind::Call, notes::callRefOf(loaded.run->calls[2]), std::nullopt, std::nullopt},
             payload,
             testing::hostilePayloads()[3]});
    sidecar.notes.push_back({{notes::TargetKind::LedgerRow, notes::callRefOf(loaded.run->calls[4]), std::size_t(1),
                              std::string("<script>document.title='PWNED'</script>")},
                             testing::hostilePayloads()[4],
                             ""});
    sidecar.notes.push_back({{notes::TargetKind::Call, {77, testing::hostilePayloads()[7]}, std::nullopt, std::nullopt},
                             testing::hostilePayloads()[2],
                             ""});
    {
        QFile f(QString::fromStdString(notes::sidecarPathFor(recording.toStdString())));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(notes::serializeSidecar(sidecar)));
    }

    m_report = m_dir.filePath(QStringLiteral("report.html"));
    QProcess cli;
    cli.start(QStringLiteral(TRACEFOLD_CLI), {QStringLiteral("report"), recording, QStringLiteral("-o"), m_report});
    QVERIFY(cli.waitForFinished(120000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());

    // The same report without its Content-Security-Policy: the escaping alone must keep it inert.
    QFile in(m_report);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray html = in.readAll();
    const qsizetype csp = html.indexOf("<meta http-equiv=\"Content-Security-Policy\"");
    QVERIFY(csp > 0);
    html.remove(csp, html.indexOf('>', csp) - csp + 1);
    QVERIFY(!html.contains("Content-Security-Policy"));
    m_reportWithoutCsp = m_dir.filePath(QStringLiteral("report-no-csp.html"));
    QFile out(m_reportWithoutCsp);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(html);
}

void TestHostileReport::noScriptRuns_data()
{
    QTest::addColumn<bool>("withCsp");
    QTest::newRow("as-written") << true;
    QTest::newRow("csp-removed") << false;
}

void TestHostileReport::noScriptRuns()
{
    QFETCH(bool, withCsp);
    const QString profile = m_dir.filePath(withCsp ? QStringLiteral("profile-a") : QStringLiteral("profile-b"));
    QDir().mkpath(profile);
    const QByteArray dom = dumpDom(m_browser, withCsp ? m_report : m_reportWithoutCsp, profile);
    QVERIFY2(dom.contains("</html>"), "chromium produced no DOM dump");
    const QByteArray body = withoutStyle(dom);

    // Nothing ran: the title is the report's own, and no sentinel element exists.
    QVERIFY2(dom.contains(m_title), "document.title was changed");
    QVERIFY(!dom.contains("PWNED</title>"));
    const QRegularExpression sentinelElement(QStringLiteral("<[a-zA-Z][^<>]*\\sid=\"pwned"));
    QVERIFY(!sentinelElement.match(QString::fromUtf8(body)).hasMatch());
    QVERIFY(body.contains("&lt;div id=\"pwned-markup\"&gt;")); // as text
    // Nothing from the data became an element or an attribute.
    QCOMPARE(body.count("<script"), 0);
    for (const char *tag : {"<img", "<svg", "<iframe", "<math", "<body onload", "<a href=\"javascript"})
        QVERIFY2(!body.contains(tag), tag);
    QCOMPARE(body.count("<meta"), withCsp ? 5 : 4); // charset, CSP, referrer, viewport, generator: the report's own
    const QRegularExpression onAttribute(QStringLiteral("<[a-zA-Z][^>]*\\son[a-z]+\\s*="));
    QVERIFY(!onAttribute.match(QString::fromUtf8(body)).hasMatch());
    const QRegularExpression href(QStringLiteral("<[a-zA-Z][^<>]*\\shref=\"([^\"]*)\""));
    for (auto it = href.globalMatch(QString::fromUtf8(body)); it.hasNext();) {
        const QString target = it.next().captured(1);
        QVERIFY2(target.startsWith(QLatin1Char('#')), qPrintable(target));
    }
    // The structure survived every attempt to close it early: all calls and the footer are there.
    QCOMPARE(std::size_t(body.count("<section class=\"call\"")), m_calls);
    QVERIFY(body.contains("class=\"footer\""));
    // And the hostile text is there to read, as text.
    QVERIFY(body.contains("&lt;script&gt;window.__pwned=1;document.title='PWNED'&lt;/script&gt;"));
    QVERIFY(body.contains("&lt;img src=x onerror=\"document.title='PWNED'\"&gt;"));
    QVERIFY(body.contains("&lt;/style&gt;&lt;/pre&gt;&lt;/code&gt;&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;"));
    QVERIFY(body.contains("&lt;iframe srcdoc="));
    QVERIFY(body.contains("javascript:document.title"));
    QVERIFY(body.contains("lone \xEF\xBF\xBD surrogate"));
    QVERIFY(body.contains("\xE2\x80\xA8")); // U+2028, as a character of the text
    QVERIFY(body.contains("&lt;U+202E&gt;"));
    QVERIFY(body.contains("The port is down&lt;script&gt;")); // the hostile answer
}

QTEST_APPLESS_MAIN(TestHostileReport)
#include "tst_hostilereport.moc"
