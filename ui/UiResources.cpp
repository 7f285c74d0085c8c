#include "UiResources.hpp"

#include <QtGlobal>

// Q_INIT_RESOURCE must be used outside any namespace.
static void registerKwuiResources()
{
    Q_INIT_RESOURCE(kwui);
    Q_INIT_RESOURCE(help); // the user guide, help/
}

namespace kw {

void initUiResources()
{
    static const bool done = (registerKwuiResources(), true);
    (void)done;
}

} // namespace kw
