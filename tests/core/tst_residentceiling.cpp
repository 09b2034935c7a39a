// The resident ceiling (core/io/residentceiling.h): a pass over a mapped file lets the pages it read go once they pass
// its budget, unless the process has a ceiling and is still under it. Measured the way the trim decides, from the
// process's file-backed resident memory (/proc/self/statm).

#include "core/io/mappedfile.h"
#include "core/io/residentceiling.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <memory>
#include <unistd.h>

using namespace tf;

namespace {

constexpr std::size_t kFileBytes = 48u << 20;
constexpr std::size_t kBudget = 1u << 20;

// {all, file-backed} resident bytes of this process; {0, 0} where /proc is missing.
std::pair<std::size_t, std::size_t> resident()
{
    std::FILE *f = std::fopen("/proc/self/statm", "r");
    if (!f)
        return {0, 0};
    unsigned long size = 0, all = 0, shared = 0;
    const int read = std::fscanf(f, "%lu %lu %lu", &size, &all, &shared);
    std::fclose(f);
    const auto page = std::size_t(::sysconf(_SC_PAGESIZE));
    return read == 3 ? std::pair{std::size_t(all) * page, std::size_t(shared) * page}
                     : std::pair{std::size_t(0), std::size_t(0)};
}

// Reads every page of the mapping, as a pass does.
unsigned touchAll(const io::MappedFile &file)
{
    unsigned sum = 0;
    const std::string_view bytes = file.bytes();
    for (std::size_t i = 0; i < bytes.size(); i += 4096)
        sum += static_cast<unsigned char>(bytes[i]);
    return sum;
}

} // namespace

class TestResidentCeiling : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void budgetAloneLetsGo();
    void roomUnderTheCeilingKeeps();
    void aCeilingAlreadyPassedLetsGo();

private:
    std::shared_ptr<const io::MappedFile> mapped();

    QTemporaryDir m_dir;
    QString m_path;
};

void TestResidentCeiling::initTestCase()
{
    if (resident().second == 0)
        QSKIP("no /proc/self/statm");
    QVERIFY(m_dir.isValid());
    m_path = m_dir.filePath(QStringLiteral("pages.bin"));
    QFile f(m_path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    const QByteArray chunk(1 << 20, 'x');
    for (std::size_t i = 0; i < kFileBytes / chunk.size(); ++i)
        QCOMPARE(f.write(chunk), qint64(chunk.size()));
}

void TestResidentCeiling::cleanup()
{
    io::setResidentCeiling(0);
}

std::shared_ptr<const io::MappedFile> TestResidentCeiling::mapped()
{
    std::string error;
    auto file = io::MappedFile::open(m_path.toStdString(), error);
    if (!file)
        qWarning("%s", error.c_str());
    return file;
}

void TestResidentCeiling::budgetAloneLetsGo()
{
    auto file = mapped();
    QVERIFY(file);
    const std::size_t before = resident().second;
    QVERIFY(touchAll(*file) > 0);
    QVERIFY(resident().second >= before + kFileBytes * 3 / 4); // the pages the pass read are resident
    file->trimResidentPages(kBudget);
    QVERIFY2(resident().second < before + kFileBytes / 4, "past its budget, the pass let the pages go");
}

void TestResidentCeiling::roomUnderTheCeilingKeeps()
{
    auto file = mapped();
    QVERIFY(file);
    const std::size_t before = resident().second;
    QVERIFY(touchAll(*file) > 0);
    io::setResidentCeiling(resident().first + (64u << 20)); // room left under it
    file->trimResidentPages(kBudget);
    QVERIFY2(resident().second >= before + kFileBytes * 3 / 4, "under the ceiling, the pages stay");
}

void TestResidentCeiling::aCeilingAlreadyPassedLetsGo()
{
    auto file = mapped();
    QVERIFY(file);
    const std::size_t before = resident().second;
    QVERIFY(touchAll(*file) > 0);
    io::setResidentCeiling(resident().first - (8u << 20)); // the process is past it
    file->trimResidentPages(kBudget);
    QVERIFY2(resident().second < before + kFileBytes / 4, "past the ceiling, the budget decides again");
}

QTEST_GUILESS_MAIN(TestResidentCeiling)
#include "tst_residentceiling.moc"
