#include "partnames.h"

namespace tf::receipt {

namespace {

std::string indexed(std::string_view base, std::size_t index)
{
    return std::string(base) + "[" + std::to_string(index) + "]";
}

} // namespace

std::string systemPiecePart(std::size_t index)
{
    return indexed("system.pieces", index);
}

std::string messagePart(std::size_t index)
{
    return indexed("messages", index);
}

std::string toolSchemaPart(std::string_view toolName)
{
    return "tools.schema[" + std::string(toolName) + "]";
}

} // namespace tf::receipt
