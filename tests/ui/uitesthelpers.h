#pragma once

// Shared by the GUI tests: fixtures (the real samples, generated runs with collapsed results and damage, broken
// files written on the fly) and synchronous loading through the same code the app's worker runs.

#include "ui/panes/mainwindow.h"
#include "ui/services/callbundle.h"
#include "ui/services/runloader.h"

#include "core/generate/recordinggenerator.h"

#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

namespace tf::ui::test {

// A window that reads and writes no settings and opens no dialog (a load error is only emitted).
inline MainWindow::Options quietWindowOptions()
{
    MainWindow::Options options;
    options.persistSettings = false;
    options.progressDialog = false;
    options.errorDialogs = false;
    return options;
}

// A file's bytes, or none when it cannot be read (a test that changes files on disk compares them after).
inline QByteArray readBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

inline QString sampleDir()
{
    return QStringLiteral(TRACEFOLD_TEST_DATA "/samples");
}

inline QStringList realSamples()
{
    return {QStringLiteral("agentfootprint-reference-agent-findings.json"),
            QStringLiteral("agentfootprint-demo-turn.json"), QStringLiteral("lens-tool-progress-turn.json"),
            QStringLiteral("lens-skill-route-refusal.json")};
}

inline QString samplePath(const QString &name)
{
    return sampleDir() + QLatin1Char('/') + name;
}

inline QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes);

// Generated recordings: the real samples have no collapsed result and no cache usage.
inline QString writeGenerated(const QTemporaryDir &dir, const QString &name, const generate::GeneratorOptions &options)
{
    const std::string text = generate::generateRecording(options);
    return writeFile(dir, name, QByteArray(text.data(), qsizetype(text.size())));
}

inline QString writeGenerated(const QTemporaryDir &dir, const QString &name, int calls, std::uint64_t seed,
                              generate::Damage damage = {})
{
    generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = seed;
    options.damage = damage;
    return writeGenerated(dir, name, options);
}

inline QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(bytes);
    return path;
}

// A real sample cut in half: a truncated JSON document.
inline QString writeTruncated(const QTemporaryDir &dir)
{
    QFile f(samplePath(QStringLiteral("agentfootprint-demo-turn.json")));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = f.readAll();
    return writeFile(dir, QStringLiteral("truncated.json"), bytes.left(bytes.size() / 2));
}

inline RunHandle loadOrFail(const QString &path)
{
    const RunLoader::Outcome outcome = RunLoader::loadNow(path);
    if (!outcome.run)
        qWarning("%s: %s", qPrintable(path), qPrintable(outcome.error));
    return outcome.run;
}

} // namespace tf::ui::test
