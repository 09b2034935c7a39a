#pragma once

// Recordings the tests read as bytes, edit, and load: a file's bytes, and a load that stops the test on failure.

#include "core/generate/recordinggenerator.h"
#include "core/json/parser.h"
#include "core/json/writer.h"
#include "core/recording/recordingloader.h"
#include "core/text/linediff.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tf::testsupport {

inline std::string readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    const QByteArray bytes = f.readAll();
    return std::string(bytes.constData(), std::size_t(bytes.size()));
}

inline std::shared_ptr<const recording::Run> load(std::string text, const std::string &name)
{
    recording::LoadResult r = recording::loadRecordingFromBytes(std::move(text), name);
    if (!r.run)
        qFatal("%s: %s", name.c_str(), r.error.c_str());
    return r.run;
}

// The events of a recording as its fileObservability sink would have written them: one JSON line each.
inline std::string eventsOf(const std::string &text, const char *name)
{
    json::StringArena arena;
    json::ParseError error;
    const json::Value root = json::parse(text, arena, error);
    if (error.failed())
        qFatal("%s", error.describe().c_str());
    const json::Value *events = root.findArray("events");
    if (!events)
        qFatal("no events in %s", name);
    std::string log;
    for (std::size_t i = 0; i < events->size(); ++i)
        log += json::stringify(events->at(i)) + "\n";
    return log;
}

// A generated run's events as a log, long enough that a poll or a load indexes it in many chunks: `calls` calls with
// small results and a short history, `turnCalls` calls a turn.
inline std::string generatedEventLog(int calls, std::uint64_t seed, int turnCalls)
{
    generate::GeneratorOptions options;
    options.calls = calls;
    options.seed = seed;
    options.resultBytes = 400;
    options.historyWindow = 12;
    options.turnCalls = turnCalls;
    return eventsOf(generate::generateRecording(options), "generated");
}

// The events of iteration `k` of an NDJSON stream (context.evaluated of that iteration through its iteration_end)
// given twice: the run made one call more, with the same served context.
inline std::string withIterationRepeated(const std::string &ndjson, int k)
{
    const std::vector<std::string> lines = text::split(ndjson, '\n');
    const std::string evaluated = "\"type\":\"agentfootprint.context.evaluated\"";
    std::optional<std::size_t> start, end;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const bool iteration = lines[i].find("\"iteration\":" + std::to_string(k) + ",") != std::string::npos;
        const bool iterIndex = lines[i].find("\"iterIndex\":" + std::to_string(k) + ",") != std::string::npos;
        if (!start && lines[i].find(evaluated) != std::string::npos && iteration)
            start = i;
        if (lines[i].find("\"type\":\"agentfootprint.agent.iteration_end\"") != std::string::npos && iterIndex)
            end = i;
    }
    if (!start || !end || *end < *start)
        qFatal("iteration %d not found", k);
    std::string out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        out += lines[i];
        if (i + 1 < lines.size())
            out += '\n';
        if (i == *end)
            for (std::size_t j = *start; j <= *end; ++j)
                out += lines[j] + '\n';
    }
    return out;
}

} // namespace tf::testsupport
