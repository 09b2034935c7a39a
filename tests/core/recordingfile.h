#pragma once

// Recordings the tests read as bytes, edit, and load: a file's bytes, and a load that stops the test on failure.

#include "core/recording/recordingloader.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <memory>
#include <string>

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

} // namespace tf::testsupport
