#pragma once

#include <QObject>

#include <functional>

class QAbstractScrollArea;
class QWidget;

namespace tf::ui {

// Whether a scroll area's contents are on screen: shown and not wholly covered. A dock behind another's tab is
// "visible" to Qt with nothing of it on screen, so work for what nobody sees (laying out, converting text) waits.
bool onScreen(const QAbstractScrollArea *area);
// Whether any of `widget` can be seen: shown, and not behind another dock's tab (Qt counts such a dock as visible).
bool inSight(const QWidget *widget);

// Calls `shown` (queued: the tab's contents are placed after the signal) whenever the dock that holds `widget` has
// its tab brought to the front, which sends no show event to what it holds. The connection lives as long as
// `widget`. False when no dock holds it.
bool whenDockShown(QWidget *widget, std::function<void()> shown);

} // namespace tf::ui
