// Internal helpers: run a kernel, turning every exception into a status and a message.
#pragma once
#include <cstdio>
#include <exception>
#include <string>
#include "reconstruction.h"

namespace rc {

struct Failure {
    int32_t code;
    std::string message;
};

inline void write_error(rc_error* error, const std::string& message) {
    if (error == nullptr) return;
    std::snprintf(error->message, sizeof(error->message), "%s", message.c_str());
}

template <typename Body>
int32_t guarded(rc_error* error, Body&& body) {
    try {
        body();
        return RC_OK;
    } catch (const Failure& failure) {
        write_error(error, failure.message);
        return failure.code;
    } catch (const std::exception& e) {
        write_error(error, std::string("internal error: ") + e.what());
        return RC_INTERNAL;
    } catch (...) {
        write_error(error, "internal error: unknown exception");
        return RC_INTERNAL;
    }
}

inline void require(bool condition, const char* message) {
    if (!condition) throw Failure{RC_INVALID_ARGUMENT, message};
}

}  // namespace rc
