#pragma once

// Runs the built tracefold-cli as a user would (TRACEFOLD_CLI, defined for every test by tests/CMakeLists.txt): the
// tests of its commands share one runner.

#include <QProcess>
#include <QStringList>

#ifndef TRACEFOLD_CLI
#error "TRACEFOLD_CLI must name the built tracefold-cli (see tests/CMakeLists.txt)"
#endif

namespace tf::testsupport {

struct CliResult
{
    int exitCode = -1; // -1: it crashed, or did not finish in time
    QByteArray out, err;
};

inline CliResult cli(const QStringList &args, int timeoutMs = 180000)
{
    QProcess p;
    p.start(QStringLiteral(TRACEFOLD_CLI), args);
    CliResult r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace tf::testsupport
