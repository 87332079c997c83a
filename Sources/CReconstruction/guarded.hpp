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

// Copies `message` without trailing whitespace (OpenCV's messages end with a newline).
inline void write_error(rc_error* error, const std::string& message) {
    if (error == nullptr) return;
    const size_t end = message.find_last_not_of(" \t\r\n");
    const std::string trimmed = end == std::string::npos ? std::string() : message.substr(0, end + 1);
    std::snprintf(error->message, sizeof(error->message), "%s", trimmed.c_str());
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
