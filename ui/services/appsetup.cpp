#include "ui/services/appsetup.h"

#include "ui/services/englishplurals.h"
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
    // English numerus forms for every "%n thing(s)" (Qt prints "(s)" without a translation); parented to the app.
    if (!app.findChild<EnglishPlurals *>())
        QCoreApplication::installTranslator(new EnglishPlurals(&app));
    app.setWindowIcon(QIcon(QStringLiteral(":/tracefold/icons/tracefold.svg")));
}

} // namespace tf::ui
