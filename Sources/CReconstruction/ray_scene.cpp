// Ray queries on a triangle mesh through Embree: closest hits and occlusion.
#include <embree3/rtcore.h>

#include <cmath>
#include <limits>
#include <string>

#include "guarded.hpp"

struct rc_ray_scene {
    RTCDevice device = nullptr;
    RTCScene scene = nullptr;
    ~rc_ray_scene() {
        if (scene) rtcReleaseScene(scene);
        if (device) rtcReleaseDevice(device);
    }
};

namespace {

void check_device(RTCDevice device, const char* what) {
    const RTCError code = rtcGetDeviceError(device);
    if (code != RTC_ERROR_NONE) {
        throw rc::Failure{RC_INTERNAL, std::string("embree: ") + what + " failed (error " + std::to_string(int(code)) + ")"};
    }
}

RTCRayHit make_ray(const float* origin, const float* direction, float t_near, float t_far) {
    RTCRayHit query{};
    query.ray.org_x = origin[0];
    query.ray.org_y = origin[1];
    query.ray.org_z = origin[2];
    query.ray.dir_x = direction[0];
    query.ray.dir_y = direction[1];
    query.ray.dir_z = direction[2];
    query.ray.tnear = t_near;
    query.ray.tfar = t_far;
    query.ray.mask = 0xFFFFFFFFu;
    query.ray.flags = 0;
    query.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    query.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    return query;
}

void require_query(const rc_ray_scene* scene, const float* origins, const float* directions, int32_t count,
                   float t_near, float t_far) {
    rc::require(scene != nullptr && scene->scene != nullptr, "ray query: null scene");
    rc::require(count >= 0, "ray query: negative count");
    rc::require(count == 0 || (origins != nullptr && directions != nullptr), "ray query: null rays");
    rc::require(t_near >= 0 && t_far >= t_near, "ray query: need 0 <= t_near <= t_far");
}

}  // namespace

extern "C" int32_t rc_ray_scene_new(const float* positions, int32_t vertex_count, const uint32_t* triangles,
                                    int32_t triangle_count, rc_ray_scene** out, rc_error* error) {
    return rc::guarded(error, [&] {
        rc::require(out != nullptr, "rc_ray_scene_new: null output");
        *out = nullptr;
        rc::require(positions != nullptr && triangles != nullptr, "rc_ray_scene_new: null buffer");
        rc::require(vertex_count > 0 && triangle_count > 0, "rc_ray_scene_new: empty mesh");
        for (size_t i = 0; i < size_t(triangle_count) * 3; ++i) {
            rc::require(triangles[i] < uint32_t(vertex_count), "rc_ray_scene_new: index out of range");
        }
        auto holder = new rc_ray_scene();
        try {
            holder->device = rtcNewDevice("verbose=0");
            if (!holder->device) throw rc::Failure{RC_INTERNAL, "embree: cannot create a device"};
            holder->scene = rtcNewScene(holder->device);
            rtcSetSceneBuildQuality(holder->scene, RTC_BUILD_QUALITY_HIGH);
            RTCGeometry geometry = rtcNewGeometry(holder->device, RTC_GEOMETRY_TYPE_TRIANGLE);
            // Embree may read 16 bytes past the last vertex: pad the vertex buffer by one.
            auto* vertices = static_cast<float*>(rtcSetNewGeometryBuffer(
                geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, sizeof(float) * 3, size_t(vertex_count) + 1));
            auto* indices = static_cast<uint32_t*>(rtcSetNewGeometryBuffer(
                geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, sizeof(uint32_t) * 3, size_t(triangle_count)));
            check_device(holder->device, "buffer allocation");
            std::copy(positions, positions + size_t(vertex_count) * 3, vertices);
            vertices[size_t(vertex_count) * 3 + 0] = vertices[size_t(vertex_count) * 3 + 1] =
                vertices[size_t(vertex_count) * 3 + 2] = 0;
            std::copy(triangles, triangles + size_t(triangle_count) * 3, indices);
            rtcCommitGeometry(geometry);
            rtcAttachGeometry(holder->scene, geometry);
            rtcReleaseGeometry(geometry);
            rtcCommitScene(holder->scene);
            check_device(holder->device, "scene build");
        } catch (...) {
            delete holder;
            throw;
        }
        *out = holder;
    });
}

extern "C" void rc_ray_scene_free(rc_ray_scene* scene) { delete scene; }

extern "C" int32_t rc_ray_scene_intersect(const rc_ray_scene* scene, const float* origins, const float* directions,
                                          int32_t count, float t_near, float t_far, float* hit_distance,
                                          int32_t* hit_triangle, float* hit_uv, rc_error* error) {
    return rc::guarded(error, [&] {
        require_query(scene, origins, directions, count, t_near, t_far);
        rc::require(count == 0 || (hit_distance != nullptr && hit_triangle != nullptr && hit_uv != nullptr),
                    "rc_ray_scene_intersect: null output");
        RTCIntersectContext context;
        rtcInitIntersectContext(&context);
        for (int32_t i = 0; i < count; ++i) {
            RTCRayHit query = make_ray(origins + 3 * size_t(i), directions + 3 * size_t(i), t_near, t_far);
            rtcIntersect1(scene->scene, &context, &query);
            if (query.hit.geomID == RTC_INVALID_GEOMETRY_ID) {
                hit_distance[i] = std::numeric_limits<float>::infinity();
                hit_triangle[i] = -1;
                hit_uv[2 * i] = hit_uv[2 * i + 1] = 0;
            } else {
                hit_distance[i] = query.ray.tfar;
                hit_triangle[i] = int32_t(query.hit.primID);
                hit_uv[2 * i] = query.hit.u;
                hit_uv[2 * i + 1] = query.hit.v;
            }
        }
    });
}

extern "C" int32_t rc_ray_scene_occluded(const rc_ray_scene* scene, const float* origins, const float* directions,
                                         int32_t count, float t_near, float t_far, uint8_t* occluded,
                                         rc_error* error) {
    return rc::guarded(error, [&] {
        require_query(scene, origins, directions, count, t_near, t_far);
        rc::require(count == 0 || occluded != nullptr, "rc_ray_scene_occluded: null output");
        RTCIntersectContext context;
        rtcInitIntersectContext(&context);
        for (int32_t i = 0; i < count; ++i) {
            RTCRay ray = make_ray(origins + 3 * size_t(i), directions + 3 * size_t(i), t_near, t_far).ray;
            rtcOccluded1(scene->scene, &context, &ray);
            // A hit sets tfar to −infinity.
            occluded[i] = ray.tfar < 0 ? 1 : 0;
        }
    });
}
