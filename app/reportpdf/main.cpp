// tracefold-report-pdf IN.html OUT.pdf [--title TITLE]
//
// The one Qt-linked step of `tracefold-cli report --pdf`: lays an HTML report out with QTextDocument and writes a
// paged PDF, with the same code as the GUI's File > Export Report (ui/services/reportexport.cpp). It needs no display:
// it runs on Qt's offscreen platform unless QT_QPA_PLATFORM says otherwise.
#include "ui/services/reportexport.h"

#include <QFile>
#include <QGuiApplication>

#include <cstdio>

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments().mid(1);
    QString title;
    QStringList files;
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--title") && i + 1 < args.size())
            title = args[++i];
        else
            files << args[i];
    }
    if (files.size() != 2) {
        std::fputs("usage: tracefold-report-pdf IN.html OUT.pdf [--title TITLE]\n", stderr);
        return 2;
    }
    QFile in(files[0]);
    if (!in.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "%s: cannot read\n", qPrintable(files[0]));
        return 2;
    }
    QString error;
    if (!tf::ui::writeReportPdf(QString::fromUtf8(in.readAll()), files[1], title, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    return 0;
}
