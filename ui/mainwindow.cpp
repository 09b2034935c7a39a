#include "mainwindow.h"

namespace tf::ui {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Tracefold"));
    resize(1400, 900);
}

} // namespace tf::ui
