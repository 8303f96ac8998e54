// metal_library.cpp -- the kernel library: the metallib embedded in this
// library at build time, loaded from memory (no file, no shader compiler
// on the user's machine), then checked to hold every kernel the host uses.
#include <dispatch/dispatch.h>

#include <cstring>

#include "metal_context.hpp"

extern "C" {
#include "error.h"
}

const char *gpl_mtl_text(NS::String *s, const char *fallback)
{
    const char *t = s ? s->utf8String() : nullptr;
    return t ? t : fallback;
}

// Does the loaded library have a function of this name?
static int has_function(void *user, const char *name)
{
    NS::Array *names = static_cast<MTL::Library *>(user)->functionNames();
    for (NS::UInteger i = 0; names && i < names->count(); i++) {
        const char *n = gpl_mtl_text(names->object<NS::String>(i), "");
        if (!std::strcmp(n, name)) return 1;
    }
    return 0;
}

gpulayer_status gpl_mtl_library_load(gpl_mtl_context *c)
{
    // The bytes are copied into the dispatch data (default destructor), so
    // the library never depends on where the blob lives.
    dispatch_data_t data = dispatch_data_create(gpl_mtl_library.bytes, gpl_mtl_library.size,
                                                nullptr, DISPATCH_DATA_DESTRUCTOR_DEFAULT);
    if (!data)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "metal backend: no memory for the kernel library (%zu bytes)",
                         gpl_mtl_library.size);
    NS::Error *err = nullptr;
    c->library = c->device->newLibrary(data, &err);
    dispatch_release(data);
    if (!c->library)
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "metal backend: device '%s' refused the embedded kernel library: %s",
                         c->caps.name,
                         err ? gpl_mtl_text(err->localizedDescription(), "no reason given")
                             : "no reason given");
    return gpl_mtl_library_check_functions(has_function, c->library);
}
