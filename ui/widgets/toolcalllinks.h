#pragma once

#include <QPoint>
#include <QStringList>

#include <functional>

class QAbstractItemView;
class QModelIndex;
class QWidget;

namespace tf::ui {

// Makes the cells of `view` that carry ToolCallIdsRole (ui/models/toolcalllink.h) follow their id on a click, with a
// pointing hand over them. `follow` gets the id.
void installToolCallLinks(QAbstractItemView *view, std::function<void(const QString &)> follow);

// The ids a row shows in any of its cells (for the keyboard: Go > Follow Tool Call Id acts on the current row).
QStringList toolCallIdsOfRow(const QModelIndex &index);

// One id is followed at once; several (an assistant turn that called more than one tool) are offered in a menu at
// `globalPos`.
void chooseToolCallId(QWidget *anchor, const QPoint &globalPos, const QStringList &ids,
                      const std::function<void(const QString &)> &follow);

} // namespace tf::ui
