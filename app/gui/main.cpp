#include "ui/appsetup.h"
#include "ui/mainwindow.h"
#include "ui/screenshot.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>
#include <cstring>

int main(int argc, char *argv[])
{
    // Screenshot mode renders offscreen; the platform must be chosen before QApplication exists.
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--screenshot") == 0 && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    tf::ui::setupApplication(app);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Replay a recorded agentfootprint run call by call."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QCoreApplication::translate("main", "Render the window to OUT.png and exit."),
                                        QStringLiteral("OUT.png"));
    const QCommandLineOption call(QStringLiteral("call"),
                                  QCoreApplication::translate("main", "Select call N (1-based) when the file opens."),
                                  QStringLiteral("N"));
    parser.addOption(screenshot);
    parser.addOption(call);
    parser.addPositionalArgument(
        QStringLiteral("FILE"),
        QCoreApplication::translate("main", "The recording to open (the bundled sample when omitted)."));
    parser.process(app);

    int callNumber = 1;
    if (parser.isSet(call)) {
        bool ok = false;
        callNumber = parser.value(call).toInt(&ok);
        if (!ok || callNumber < 1) {
            std::fprintf(stderr, "tracefold: --call expects a call number from 1\n");
            return 2;
        }
    }
    const QStringList files = parser.positionalArguments();
    if (files.size() > 1) {
        std::fprintf(stderr, "tracefold: open one FILE at a time\n");
        return 2;
    }
    const QString file = files.value(0);

    if (parser.isSet(screenshot))
        return tf::ui::renderScreenshot({parser.value(screenshot), callNumber, file});

    tf::ui::MainWindow window;
    window.show();
    window.setInitialCall(callNumber - 1);
    if (file.isEmpty())
        window.openBundledSample();
    else
        window.openFile(file);
    return QApplication::exec();
}
