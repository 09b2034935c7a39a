#include "core/crypto/sha256.h"

#include <QDir>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using tf::crypto::Sha256;

namespace {

// Turns the SHA extensions off for its lifetime, restoring the setting however the scope is left (a failed
// QCOMPARE returns early, and the cases after it must not silently run on the portable path).
class PortableRounds
{
public:
    PortableRounds()
        : m_previous(tf::crypto::detail::setShaExtensionsAllowed(false))
    {
    }
    ~PortableRounds() { tf::crypto::detail::setShaExtensionsAllowed(m_previous); }
    PortableRounds(const PortableRounds &) = delete;
    PortableRounds &operator=(const PortableRounds &) = delete;

private:
    bool m_previous;
};

std::string_view view(const QByteArray &bytes)
{
    return {bytes.constData(), std::size_t(bytes.size())};
}

QString hexOf(const QByteArray &bytes)
{
    return QString::fromStdString(Sha256::hexDigest(view(bytes)));
}

// Deterministic bytes covering the whole 0..255 range, so a signed-char slip in the padding or loads shows up.
QByteArray randomBytes(qsizetype size, quint32 seed)
{
    QRandomGenerator generator(seed);
    QByteArray bytes(size, Qt::Uninitialized);
    for (qsizetype i = 0; i < size; ++i)
        bytes[i] = char(generator.bounded(256));
    return bytes;
}

} // namespace

class TestSha256 : public QObject
{
    Q_OBJECT

private slots:
    void nistVectors_data();
    void nistVectors();
    void extensionsAgreeWithPortableRounds();
    void incrementalEqualsOneShotAtEverySplit();
    void byteAtATimeAcrossBlockBoundaries();
    void finishResetsForReuse();
    void hexHelper();
    void matchesCoreutils_data();
    void matchesCoreutils();
};

void TestSha256::nistVectors_data()
{
    // FIPS 180-4 examples (NIST CSRC "SHA256.pdf", "SHA2_Additional.pdf").
    QTest::addColumn<QByteArray>("message");
    QTest::addColumn<QString>("digest");
    QTest::newRow("empty") << QByteArray() << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    QTest::newRow("abc") << QByteArray("abc") << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    QTest::newRow("448-bit") << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                             << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
    QTest::newRow("896-bit") << QByteArray(
                                    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopq"
                                    "klmnopqrlmnopqrsmnopqrstnopqrstu")
                             << "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1";
    QTest::newRow("million-a") << QByteArray(1000000, 'a')
                               << "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
}

void TestSha256::nistVectors()
{
    QFETCH(QByteArray, message);
    QFETCH(QString, digest);
    QCOMPARE(hexOf(message), digest);
    // The same vector through the portable rounds (on a CPU with the SHA extensions the line above used them).
    const PortableRounds portable;
    QCOMPARE(hexOf(message), digest);
}

void TestSha256::extensionsAgreeWithPortableRounds()
{
    if (!tf::crypto::detail::shaExtensionsAvailable())
        QSKIP("this CPU has no SHA extensions: only the portable rounds run here");
    // Every length up to five blocks, then a multi-megabyte input fed in odd-sized pieces so that whole-block runs
    // of every length start from every fill level.
    std::string data;
    std::uint32_t seed = 99;
    for (int i = 0; i < (3 << 20) + 17; ++i) {
        seed = seed * 1664525u + 1013904223u;
        data.push_back(char(seed >> 24));
    }
    const auto both = [](const auto &feed) {
        Sha256 fast, portable;
        feed(fast);
        Sha256::Digest portableDigest;
        {
            const PortableRounds rounds;
            feed(portable);
            portableDigest = portable.finish();
        }
        return std::pair(fast.finish(), portableDigest);
    };
    for (std::size_t n = 0; n <= 320; ++n) {
        const auto [fast, portable] = both([&](Sha256 &h) { h.update(data.data(), n); });
        QVERIFY2(fast == portable, qPrintable(QStringLiteral("length %1").arg(n)));
    }
    const auto [fast, portable] = both([&](Sha256 &h) {
        std::size_t at = 0, piece = 1;
        while (at < data.size()) {
            const std::size_t take = std::min(piece, data.size() - at);
            h.update(data.data() + at, take);
            at += take;
            piece = piece * 7 % 9973 + 1;
        }
    });
    QVERIFY(fast == portable);
}

void TestSha256::incrementalEqualsOneShotAtEverySplit()
{
    const QByteArray message = randomBytes(200, 7);
    const Sha256::Digest expected = Sha256::digest(view(message));
    for (qsizetype first = 0; first <= message.size(); ++first) {
        // Two parts at every offset, and three parts with the second cut 64 bytes later (one full block between).
        Sha256 two;
        two.update(message.constData(), std::size_t(first));
        two.update(message.constData() + first, std::size_t(message.size() - first));
        QVERIFY2(two.finish() == expected, qPrintable(QStringLiteral("split at %1").arg(first)));

        const qsizetype second = std::min(message.size(), first + 64);
        Sha256 three;
        three.update(message.constData(), std::size_t(first));
        three.update(message.constData() + first, std::size_t(second - first));
        three.update(message.constData() + second, std::size_t(message.size() - second));
        QVERIFY2(three.finish() == expected, qPrintable(QStringLiteral("splits at %1 and %2").arg(first).arg(second)));
    }
}

void TestSha256::byteAtATimeAcrossBlockBoundaries()
{
    for (const qsizetype size : {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 200}) {
        const QByteArray message = randomBytes(size, quint32(size) + 11);
        Sha256 h;
        for (const char c : message)
            h.update(&c, 1);
        QCOMPARE(Sha256::hex(h.finish()), Sha256::hexDigest(view(message)));
    }
}

void TestSha256::finishResetsForReuse()
{
    Sha256 h;
    h.update("some earlier message");
    (void)h.finish();
    h.update("abc");
    QCOMPARE(Sha256::hex(h.finish()), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    // Nothing fed after a finish is the empty message.
    QCOMPARE(Sha256::hex(h.finish()), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
}

void TestSha256::hexHelper()
{
    QCOMPARE(Sha256::hex(std::string_view("\x00\x0f\xf0\xff\x7f\x80", 6)), std::string("000ff0ff7f80"));
    QCOMPARE(Sha256::hex(std::string_view()), std::string());
}

void TestSha256::matchesCoreutils_data()
{
    QTest::addColumn<int>("size");
    // Around the padding edges (55 fits the length in the same block, 56 does not) and several blocks.
    for (const int size : {0,   1,   2,   31,  54,  55,  56,   57,   63,   64,   65,   111,  119,
                           120, 127, 128, 129, 191, 192, 1000, 4095, 4096, 4097, 9999, 10000})
        QTest::addRow("%d-bytes", size) << size;
}

void TestSha256::matchesCoreutils()
{
    QFETCH(int, size);
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("sha256sum"));
    if (tool.isEmpty())
        QSKIP("sha256sum (coreutils) is not installed");

    const QByteArray message = randomBytes(size, quint32(size) * 2654435761u + 1);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("message.bin"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(message), qint64(message.size()));
    file.close();

    QProcess process;
    process.start(tool, {path});
    QVERIFY(process.waitForFinished(30000));
    QCOMPARE(process.exitCode(), 0);
    const QString reference = QString::fromLatin1(process.readAllStandardOutput()).section(QLatin1Char(' '), 0, 0);
    QCOMPARE(reference.size(), 64);
    QCOMPARE(hexOf(message), reference);
}

QTEST_APPLESS_MAIN(TestSha256)
#include "tst_sha256.moc"
