#include "ui/panes/mainwindow.h"
#include "ui/services/appsetup.h"
#include "ui/services/comparisontools.h"
#include "ui/services/followtools.h"
#include "ui/services/screenshot.h"

#include <QApplication>
#include <QCommandLineParser>

#include <cstdio>
#include <cstring>
#include <memory>

namespace {

struct Options
{
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QCoreApplication::translate("main", "Render the window to OUT.png and exit."),
                                  QStringLiteral("OUT.png")};
    QCommandLineOption call{QStringLiteral("call"),
                            QCoreApplication::translate("main", "Select call N (1-based) when the file opens."),
                            QStringLiteral("N")};
    QCommandLineOption follow{
        QStringLiteral("follow"),
        QCoreApplication::translate("main", "Follow FILE while it is written: show each call as its response comes.")};
    QCommandLineOption compare{
        QStringLiteral("compare"),
        QCoreApplication::translate("main", "Compare the run with OTHER, another run of the task, once it opens."),
        QStringLiteral("OTHER")};
};

void configure(QCommandLineParser &parser, const Options &options)
{
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Replay a recorded agentfootprint run call by call."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(options.screenshot);
    parser.addOption(options.call);
    parser.addOption(options.compare);
    parser.addOption(options.follow);
    parser.addPositionalArgument(
        QStringLiteral("FILE"),
        QCoreApplication::translate("main", "The recording to open (the bundled sample when omitted)."));
}

bool isArgument(int argc, char *argv[], std::initializer_list<const char *> names)
{
    for (int i = 1; i < argc; ++i)
        for (const char *n : names)
            if (std::strcmp(argv[i], n) == 0)
                return true;
    return false;
}

} // namespace

int main(int argc, char *argv[])
{
    // --version and --help answer without a display: no GUI application is created for them.
    if (isArgument(argc, argv, {"--version", "-v", "--help", "-h", "--help-all", "-?"})) {
        QCoreApplication app(argc, argv);
        tf::ui::setApplicationNames();
        QCommandLineParser parser;
        const Options options;
        configure(parser, options);
        parser.process(app); // prints and exits
        return 0;
    }
    // Screenshot mode renders offscreen; the platform must be chosen before QApplication exists.
    if (isArgument(argc, argv, {"--screenshot"}) && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    tf::ui::setupApplication(app);
    QCommandLineParser parser;
    const Options options;
    configure(parser, options);
    parser.process(app);

    int callNumber = 1;
    if (parser.isSet(options.call)) {
        bool ok = false;
        callNumber = parser.value(options.call).toInt(&ok);
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

    const QString compareWith = parser.value(options.compare);
    if (parser.isSet(options.screenshot))
        return tf::ui::renderScreenshot({parser.value(options.screenshot), callNumber, file}, compareWith);

    tf::ui::MainWindow window;
    if (!compareWith.isEmpty()) {
        auto *tools = window.findChild<tf::ui::ComparisonTools *>();
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = QObject::connect(&window, &tf::ui::MainWindow::runLoaded, &window, [tools, compareWith, once] {
            QObject::disconnect(*once);
            tools->compareWith(compareWith);
        });
    }
    window.show();
    window.setInitialCall(callNumber - 1);
    if (parser.isSet(options.follow)) {
        if (file.isEmpty()) {
            std::fprintf(stderr, "tracefold: --follow needs a FILE\n");
            return 2;
        }
        window.findChild<tf::ui::FollowTools *>()->follow(file);
    } else if (file.isEmpty())
        window.openBundledSample();
    else
        window.openFile(file);
    return QApplication::exec();
}
