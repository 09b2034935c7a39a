#pragma once

#include <QString>

#include <functional>

class QAbstractItemView;

namespace tf::ui {

// Makes the cells of `view` that carry ToolCallIdsRole (ui/models/toolcalllink.h) follow their id on a click, with a
// pointing hand over them: one id is followed at once, several (an assistant turn that called more than one tool)
// are offered in a menu. `follow` gets the id.
void installToolCallLinks(QAbstractItemView *view, std::function<void(const QString &)> follow);

} // namespace tf::ui
