#include "ui/mainwindow.h"

#include <QApplication>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Tracefold"));
    QApplication::setApplicationVersion(QStringLiteral(TRACEFOLD_VERSION));
    tf::ui::MainWindow window;
    window.show();
    return QApplication::exec();
}
