#pragma once

// Reads a PDF back as a reviewer's tools would: poppler-utils' pdftotext and pdfinfo (dev.sh installs poppler-utils
// with the test packages). A missing tool yields an empty string, which fails the caller's checks: the PDF's text is
// never left unchecked.

#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

namespace tf::testsupport {

inline QString popplerOutput(const char *tool, const QStringList &args)
{
    const QString exe = QStandardPaths::findExecutable(QString::fromLatin1(tool));
    if (exe.isEmpty()) {
        qWarning("%s not found: install poppler-utils (./dev.sh test does)", tool);
        return {};
    }
    QProcess p;
    p.start(exe, args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return {};
    // NFKC: the PDF's ligatures ("ﬁ" in "verified") read back as their letters.
    return QString::fromUtf8(p.readAllStandardOutput()).normalized(QString::NormalizationForm_KC);
}

} // namespace tf::testsupport
