#include "ui/services/appsetup.h"

#include "ui/widgets/flatscrollbarstyle.h"

#include <QApplication>
#include <QIcon>

namespace tf::ui {

void setApplicationNames()
{
    QApplication::setApplicationName(QStringLiteral("Tracefold"));
    QApplication::setApplicationDisplayName(QStringLiteral("Tracefold"));
    QApplication::setApplicationVersion(QStringLiteral(TRACEFOLD_VERSION));
    QApplication::setOrganizationName(QStringLiteral("Tracefold"));
    QApplication::setOrganizationDomain(QStringLiteral("tracefold.dev"));
    // The reverse-DNS id of the desktop file, metainfo and icon (packaging uses the same).
    QGuiApplication::setDesktopFileName(QStringLiteral("dev.tracefold.Tracefold"));
}

void setupApplication(QApplication &app)
{
    setApplicationNames();
    installFlatScrollBars();
    app.setWindowIcon(QIcon(QStringLiteral(":/tracefold/icons/tracefold.svg")));
}

} // namespace tf::ui
