// Newer releases' values in the window (issue 16, spec/upstream-since-9.113.md): a result the library stripped
// (tool_end.modelResult) shows what the model was served, with the tool's own result one click away; a placeholder
// on a run served under a redaction policy is marked redacted in the Wire and the Receipt, never damaged; without the
// policy's row the same text is ordinary text. Offscreen; widgets by object name.

#include "../core/recordingtext.h"

#include "ui/models/receiptmodel.h"
#include "ui/models/wiremodel.h"
#include "ui/panes/mainwindow.h"
#include "ui/services/appsetup.h"

#include "core/json/writer.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace tf;
using namespace tf::ui;

namespace {

// The JSON literal of the result of a tool_end, by its toolCallId.
std::string resultLiteral(const std::string &text, std::string_view id)
{
    const auto doc = testsupport::parseJson(text);
    for (const json::Value &e : *doc->root.findArray("events"))
        if (e.findString("type")->stringEquals("agentfootprint.stream.tool_end"))
            if (const json::Value *p = e.findObject("payload"); p && p->findString("toolCallId")->stringEquals(id))
                return json::stringify(*p->find("result"));
    qFatal("no tool result %s", std::string(id).c_str());
}

} // namespace

class TestUpstreamGui : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void strippedAndRedactedResults_data();
    void strippedAndRedactedResults();

private:
    QString write(const QString &name, const std::string &text);
    QTemporaryDir m_dir;
};

void TestUpstreamGui::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    setupApplication(*static_cast<QApplication *>(QCoreApplication::instance()));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
}

QString TestUpstreamGui::write(const QString &name, const std::string &text)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(text.data(), qint64(text.size()));
    return path;
}

void TestUpstreamGui::strippedAndRedactedResults_data()
{
    QTest::addColumn<bool>("policy");
    QTest::newRow("served under a redaction policy") << true;
    QTest::newRow("no policy: the placeholder is text") << false;
}

void TestUpstreamGui::strippedAndRedactedResults()
{
    QFETCH(bool, policy);
    std::string text = testsupport::generated(6, 7);
    const std::string raw = resultLiteral(text, "call_1");
    // call_1: the library stripped fields, so the history (what the model was sent) holds the shorter modelResult
    // and tool_end keeps the tool's own result beside it, as 9.116 writes them.
    const std::string served = R"x("rows: 3 (fields stripped)")x";
    text = testsupport::replaceAll(text, raw, served);
    const std::string head = R"("type":"agentfootprint.stream.tool_end","payload":{"toolCallId":"call_1",)";
    const std::size_t at = text.find(head);
    QVERIFY(at != std::string::npos);
    const std::size_t result = text.find(R"("result":)" + served, at);
    QVERIFY(result != std::string::npos && result < at + head.size() + 40);
    text.replace(result, 9 + served.size(), R"("result":)" + raw + R"(,"modelResult":)" + served);
    // call_2: kept out by the policy, everywhere it appears; the receipts' hashes stay those of the original.
    std::size_t replaced = 0;
    text = testsupport::replaceAll(text, resultLiteral(text, "call_2"), R"("[REDACTED]")", &replaced);
    QVERIFY(replaced > 0);
    if (policy)
        text = testsupport::withRedactionMarker(std::move(text));
    const QString path = write(QStringLiteral("upstream.json"), text);

    MainWindow::Options options;
    options.persistSettings = false;
    options.errorDialogs = false;
    MainWindow w(options);
    w.resize(1400, 900);
    w.show();
    QSignalSpy loaded(&w, &MainWindow::runLoaded);
    w.openFile(path);
    QVERIFY(loaded.wait(60000));
    const int last = int(w.run()->calls.size()) - 1;
    w.showCall(last);
    QTRY_VERIFY(w.currentBundle() && int(w.currentBundle()->ordinal) == last);

    auto *wire = w.findChild<QTreeView *>(QStringLiteral("wireView"));
    QVERIFY(wire);
    const QModelIndex messages = wire->model()->index(WireModel::MessagesGroup, 0);
    QModelIndex stripped;
    for (int m = 0; m < wire->model()->rowCount(messages); ++m) {
        const QModelIndex row = wire->model()->index(m, 0, messages);
        const QString id = wire->model()->index(m, WireModel::IdColumn, messages).data().toString();
        if (id == QLatin1String("call_1") && row.data(WireModel::StrippedRole).toBool())
            stripped = row;
        QVERIFY(row.data(WireModel::StrippedRole).toBool() == (id == QLatin1String("call_1")));
    }
    QVERIFY(stripped.isValid());
    QCOMPARE(stripped.data(WireModel::ContentRole).toString(), QStringLiteral("rows: 3 (fields stripped)"));

    // The tool's own result is one click away, and back.
    wire->setCurrentIndex(stripped);
    auto *button = w.findChild<QAbstractButton *>(QStringLiteral("showOriginalButton"));
    QVERIFY(button && button->isVisible());
    QCOMPARE(button->text(), QStringLiteral("Show the tool's own result"));
    button->click();
    const QString shownRaw = stripped.data(WireModel::RawResultRole).toString();
    QCOMPARE(shownRaw.toStdString(), testsupport::parseJson(raw)->root.decodedString());
    QCOMPARE(button->text(), QStringLiteral("Show what was served"));

    // The placeholder: marked where a call serves it in full (later calls send it as a collapse ticket).
    bool marked = false;
    for (int call = 1; call <= last && !marked; ++call) {
        w.showCall(call);
        QTRY_VERIFY(w.currentBundle() && int(w.currentBundle()->ordinal) == call);
        const QModelIndex ms = wire->model()->index(WireModel::MessagesGroup, 0);
        for (int m = 0; m < wire->model()->rowCount(ms); ++m)
            marked = marked || wire->model()->index(m, 0, ms).data(WireModel::RedactedRole).toBool();
    }
    QCOMPARE(marked, policy);

    // The Receipt at that call: redacted parts under the policy, damaged ones without it; never both. call_1's message
    // is left out: the fixture put the modelResult into a history its receipt hashed with the tool's own result.
    QString strippedPart;
    const QModelIndex ms = wire->model()->index(WireModel::MessagesGroup, 0);
    for (int m = 0; m < wire->model()->rowCount(ms); ++m)
        if (wire->model()->index(m, WireModel::IdColumn, ms).data().toString() == QLatin1String("call_1"))
            strippedPart = QStringLiteral("messages[%1]").arg(m);
    w.findChild<QDockWidget *>(QStringLiteral("receiptDock"))->raise(); // a tab: brought up to date when in front
    auto *receipt = w.findChild<QTableView *>(QStringLiteral("receiptView"));
    QVERIFY(receipt);
    int redactedParts = 0, damagedParts = 0;
    for (int r = 0; r < receipt->model()->rowCount(); ++r) {
        const QModelIndex part = receipt->model()->index(r, 0);
        if (part.data(ReceiptModel::PartIdRole).toString() == strippedPart)
            continue;
        const auto badge = recording::Badge(part.data(ReceiptModel::BadgeRole).toInt());
        redactedParts += badge == recording::Badge::Redacted;
        damagedParts += badge == recording::Badge::Damaged;
    }
    if (policy) {
        QVERIFY(redactedParts > 0);
        QCOMPARE(damagedParts, 0);
    } else {
        QCOMPARE(redactedParts, 0);
        QVERIFY(damagedParts > 0);
    }
}

QTEST_MAIN(TestUpstreamGui)
#include "tst_upstreamgui.moc"
