// Plain C interface to the C++ reconstruction kernels (OpenCV, Ceres, Eigen).
// No C++ type appears here; every function catches all exceptions and returns a status.
// Pixel coordinates follow COLMAP: the image's top-left corner is (0, 0), the first pixel's
// centre is (0.5, 0.5). Rotations are row-major 3×3 matrices; poses map world to camera.
#ifndef RECONSTRUCTION_H
#define RECONSTRUCTION_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Status codes returned by every function.
enum {
    RC_OK = 0,
    RC_INVALID_ARGUMENT = 1,  ///< a null pointer, a size out of range, an empty buffer
    RC_DECODE_FAILED = 2,     ///< the bytes are not an image the decoder can read
    RC_ESTIMATION_FAILED = 3, ///< a robust estimator found no model with enough support
    RC_INTERNAL = 4,          ///< an exception from a library; the message says which
};

/// Error detail written by a failing call (untouched on success).
typedef struct {
    char message[512];
} rc_error;

// MARK: Image codec

/// How `rc_image_decode` converts the pixels.
enum {
    RC_DECODE_COLOR = 0,     ///< 3 channels RGB, 8-bit
    RC_DECODE_GRAY = 1,      ///< 1 channel, 8-bit
    RC_DECODE_UNCHANGED = 2, ///< channels and sample type as stored (16-bit PNG depth, float TIFF)
};

/// Sample types of decoded or encoded pixels.
enum {
    RC_SAMPLE_U8 = 0,
    RC_SAMPLE_U16 = 1,
    RC_SAMPLE_F32 = 2,
};

/// Encoded image formats.
enum {
    RC_FORMAT_PNG = 0,
    RC_FORMAT_JPEG = 1,
    RC_FORMAT_TIFF = 2,
};

/// Decoded pixels: rows top to bottom, channels interleaved (RGB / RGBA order).
typedef struct rc_image rc_image;

typedef struct {
    int32_t width;
    int32_t height;
    int32_t channels;
    int32_t sample_type;  ///< RC_SAMPLE_*
} rc_image_info;

/// Decodes an encoded image (JPEG, PNG, TIFF, WebP, …, and HEIF/HEIC through libheif, recognised by
/// its ftyp brands whatever the file's name). `reduction` (1, 2, 4 or 8) divides the size while decoding (JPEG
/// decodes at the reduced size directly); only 1 is allowed with RC_DECODE_UNCHANGED. EXIF
/// orientation is ignored, as in feature extraction.
int32_t rc_image_decode(const uint8_t* encoded, size_t length, int32_t mode, int32_t reduction, rc_image** out,
                        rc_error* error);
void rc_image_get_info(const rc_image* image, rc_image_info* info);
/// Copies width × height × channels samples of the info's sample type.
void rc_image_copy(const rc_image* image, void* pixels);
void rc_image_free(rc_image* image);

/// An encoded byte buffer owned by the shim.
typedef struct rc_bytes rc_bytes;

/// Encodes width × height × channels (1 or 3, RGB order) samples as PNG (8/16-bit), JPEG (8-bit,
/// `jpeg_quality` 1…100) or TIFF (8/16-bit or float).
int32_t rc_image_encode(const void* pixels, int32_t width, int32_t height, int32_t channels, int32_t sample_type,
                        int32_t format, int32_t jpeg_quality, rc_bytes** out, rc_error* error);
size_t rc_bytes_size(const rc_bytes* bytes);
const uint8_t* rc_bytes_data(const rc_bytes* bytes);
void rc_bytes_free(rc_bytes* bytes);

// MARK: HEIF depth

/// How the samples of a HEIF depth image map to depth: the file's depth_representation_info
/// (ISO/IEC 23008-12, from HEVC's depth representation SEI), when it has one.
typedef struct {
    int32_t representation_known; ///< 1 when the file carries depth_representation_info; else the rest is 0
    int32_t representation_type;  ///< 0 uniform inverse Z, 1 uniform disparity, 2 uniform Z, 3 non-uniform disparity
    int32_t has_z_near;
    int32_t has_z_far;
    int32_t has_d_min;
    int32_t has_d_max;
    double z_near;     ///< nearest depth, in the file's units
    double z_far;      ///< farthest depth
    double d_min;      ///< smallest disparity
    double d_max;      ///< largest disparity
    int32_t bit_depth; ///< bits per stored sample
} rc_heif_depth_info;

/// Decodes the depth image of a HEIF file's primary image (its auxiliary depth image) into `out`:
/// one channel of 32-bit floats, each the stored sample / (2^bit_depth − 1), as stored (rotation
/// and mirroring not applied). Sets `*found` to 0 and `*out` to null when the image has no depth.
/// Fails with RC_DECODE_FAILED for bytes that are not a readable HEIF file or an undecodable depth image.
int32_t rc_heif_decode_depth(const uint8_t* encoded, size_t length, rc_image** out, rc_heif_depth_info* info,
                             int32_t* found, rc_error* error);

// MARK: Features

typedef struct {
    /// Images larger than this (longest side, pixels) are resized before detection; 0: no limit.
    /// Keypoints are still reported in the decoded image's pixels.
    int32_t max_image_dimension;
    /// Scale of the image given to SIFT relative to the (possibly resized) image, in (0, 1].
    /// SIFT doubles its input, so 0.5 starts the scale space at the image's own resolution.
    float detection_scale;
    /// Images whose longest side (after resizing) is at most this use detection scale 1 (SIFT's
    /// upsampled octave), whatever `detection_scale` says; 0 disables.
    int32_t full_scale_below_dimension;
    /// Keep at most this many keypoints, strongest first; 0 keeps all.
    int32_t max_features;
    /// SIFT contrast threshold (OpenCV scale, default 0.04; lower finds more).
    float contrast_threshold;
    /// SIFT edge threshold (default 10).
    float edge_threshold;
} rc_feature_options;

/// SIFT keypoints and RootSIFT descriptors of one image.
typedef struct rc_features rc_features;

typedef struct {
    int32_t image_width;   ///< decoded image width, pixels
    int32_t image_height;  ///< decoded image height, pixels
    int32_t count;         ///< number of keypoints
} rc_features_info;

/// Decodes an encoded image (JPEG, PNG, TIFF, WebP, HEIC, …) and extracts features.
int32_t rc_extract_features(const uint8_t* encoded, size_t length, const rc_feature_options* options,
                            rc_features** out, rc_error* error);
void rc_features_get_info(const rc_features* features, rc_features_info* info);
/// Copies the results: keypoints as (x, y, scale, orientation radians) × count, descriptors as
/// 128 bytes × count (RootSIFT scaled to 0…255), colours as RGB × count. Any pointer may be null.
void rc_features_copy(const rc_features* features, float* keypoints, uint8_t* descriptors, uint8_t* colors);
void rc_features_free(rc_features* features);

// MARK: Matching

typedef struct {
    /// Lowe's ratio test: best distance / second-best distance must be below this.
    float max_ratio;
    /// Largest accepted descriptor distance (unit-norm descriptors, 0…√2).
    float max_distance;
    /// Keep only mutual nearest neighbours.
    int32_t cross_check;
} rc_match_options;

/// Nearest-neighbour matching of 128-byte descriptors. Writes pairs (index1, index2) to `matches`,
/// which must hold 2 × min(count1, count2) entries; `match_count` receives the number of pairs.
int32_t rc_match_descriptors(const uint8_t* descriptors1, int32_t count1, const uint8_t* descriptors2,
                             int32_t count2, const rc_match_options* options, int32_t* matches,
                             int32_t* match_count, rc_error* error);

/// C = A · Bᵀ in single precision (oneDNN's sgemm), row-major: A is m × k, B is n × k, C is m × n.
/// `threads` caps the library's threads for this call (1 when the caller runs calls in parallel).
int32_t rc_multiply_transposed(const float* a, const float* b, int32_t m, int32_t n, int32_t k, int32_t threads,
                               float* c, rc_error* error);

// MARK: Two-view geometry

typedef struct {
    /// Largest accepted error: Sampson distance in normalised units for the essential matrix,
    /// pixels for the fundamental matrix.
    double max_error;
    /// RANSAC confidence (0…1).
    double confidence;
    /// RANSAC iteration cap.
    int32_t max_iterations;
} rc_ransac_options;

/// Essential matrix from normalised image coordinates (x, y per point, K⁻¹ applied), then the
/// relative pose (second camera from first; |t| = 1). `inlier_mask` receives 1 for points that
/// fit E and lie in front of both cameras.
int32_t rc_estimate_relative_pose(const double* points1, const double* points2, int32_t count,
                                  const rc_ransac_options* options, double* rotation, double* translation,
                                  uint8_t* inlier_mask, int32_t* inlier_count, rc_error* error);

/// Fundamental matrix from pixel coordinates; `inlier_mask` receives 1 for inliers.
int32_t rc_estimate_fundamental(const double* points1, const double* points2, int32_t count,
                                const rc_ransac_options* options, double* fundamental, uint8_t* inlier_mask,
                                int32_t* inlier_count, rc_error* error);

/// Homography from pixel coordinates (used to tell planar / pure-rotation pairs apart).
int32_t rc_estimate_homography(const double* points1, const double* points2, int32_t count,
                               const rc_ransac_options* options, double* homography, uint8_t* inlier_mask,
                               int32_t* inlier_count, rc_error* error);

// MARK: Absolute pose

/// Camera pose from 3D points and their normalised image coordinates (RANSAC P3P, then
/// Levenberg–Marquardt on the inliers). `max_error` is in normalised units; `focal_length` (pixels)
/// only rescales the problem for numerical conditioning. Writes the camera-from-world pose.
int32_t rc_estimate_absolute_pose(const double* points3d, const double* points2d, int32_t count,
                                  const rc_ransac_options* options, double focal_length, double* rotation,
                                  double* translation, uint8_t* inlier_mask, int32_t* inlier_count,
                                  rc_error* error);

// MARK: Bundle adjustment

enum {
    RC_REFINE_FOCAL = 1,
    RC_REFINE_PRINCIPAL_POINT = 2,
    RC_REFINE_K1 = 4,
    RC_REFINE_K2 = 8,
};

enum { RC_LOSS_TRIVIAL = 0, RC_LOSS_HUBER = 1, RC_LOSS_CAUCHY = 2 };

/// A bundle-adjustment problem as flat buffers; parameters are updated in place.
typedef struct {
    int32_t camera_count;
    /// 6 per camera: fx, fy, cx, cy, k1, k2 (pixels; k on normalised coordinates).
    double* cameras;
    /// Per camera, a mask of RC_REFINE_* flags; 0 holds the camera fixed. Focal refinement keeps fx/fy.
    const int32_t* camera_refine;
    int32_t image_count;
    /// 7 per image: camera-from-world quaternion (w, x, y, z) then translation.
    double* poses;
    /// Per image, its camera index.
    const int32_t* image_camera;
    /// Per image, 1 to hold its pose fixed.
    const uint8_t* pose_fixed;
    /// An image whose translation component `scale_anchor_axis` is held fixed (gauge), or -1.
    int32_t scale_anchor_image;
    int32_t scale_anchor_axis;
    int32_t point_count;
    /// 3 per point, world coordinates.
    double* points;
    int32_t observation_count;
    /// Per observation: image index, point index, and pixel (x, y).
    const int32_t* observation_image;
    const int32_t* observation_point;
    const double* observation_xy;
    /// Optional per-observation weight on the residual (1/σ relative to a unit-noise keypoint);
    /// null weighs every observation 1.
    const double* observation_weight;
} rc_bundle_problem;

typedef struct {
    int32_t max_iterations;
    int32_t loss;               ///< RC_LOSS_*
    double loss_scale_pixels;   ///< where the robust loss starts to down-weight residuals
    double function_tolerance;  ///< relative cost change that stops the solver
    int32_t num_threads;
    int32_t check_gradients;    ///< 1: compare every Jacobian with numeric differences (tests); a mismatch fails the solve
} rc_bundle_options;

typedef struct {
    double initial_cost;  ///< ½ Σ ρ(residual²), pixels²
    double final_cost;
    int32_t iterations;
    int32_t usable;       ///< 1 if the solution can be used
} rc_bundle_summary;

int32_t rc_bundle_adjust(rc_bundle_problem* problem, const rc_bundle_options* options,
                         rc_bundle_summary* summary, rc_error* error);

/// The essential matrices E (row-major, unit Frobenius norm) with x2ᵀ E x1 = 0 for five
/// correspondences of normalised image points (flat x, y pairs), as the essential-matrix RANSAC
/// computes them for each sample. `essentials` holds room for ten; returns how many were written
/// (0 for a degenerate sample).
int32_t rc_five_point_essentials(const double* points1, const double* points2, double* essentials);

/// One observation's weighted reprojection residual and its Jacobians, exactly as bundle
/// adjustment evaluates them (for tests of the written-out derivatives). Inputs: camera (fx, fy,
/// cx, cy, k1, k2), pose (unit quaternion w, x, y, z, then translation; camera from world), world
/// point. Outputs, row-major: residual[2], by_camera[2×6], by_pose[2×7] (in the quaternion's four
/// coordinates), by_point[2×3]; a null Jacobian output is skipped.
void rc_reprojection_jacobians(const double* camera, const double* pose, const double* point, double observed_x,
                               double observed_y, double weight, double* residual, double* by_camera,
                               double* by_pose, double* by_point);

// MARK: Multi-view stereo (PatchMatch)

/// One view given to PatchMatch stereo, at its working resolution, as an undistorted pinhole
/// camera (COLMAP pixel-centre convention).
typedef struct {
    int32_t width;
    int32_t height;
    /// Number of pixels the per-pixel buffers hold; must equal width × height.
    size_t pixel_count;
    /// Grey samples (0…255), rows top to bottom.
    const uint8_t* gray;
    /// Focal lengths and principal point, pixels at this resolution.
    double fx, fy, cx, cy;
    /// This camera from the reference camera, row-major: p_view = rotation · p_reference +
    /// translation (metres). Identity and zero for the reference itself.
    double rotation[9];
    double translation[3];
    /// Optional depth map of this view (metres along its z axis, 0 = none), used by the
    /// geometric-consistency term; null for none. Ignored on the reference.
    const float* depth;
} rc_stereo_view;

/// PatchMatch stereo settings; every policy value comes from the caller.
typedef struct {
    /// Depth range searched, metres along the reference camera's z axis; 0 < min < max.
    float depth_min;
    float depth_max;
    /// Checkerboard propagation-and-refinement iterations (≥ 1).
    int32_t iterations;
    /// Matching window half-size and sample spacing, pixels (radius ≥ 1, 1 ≤ step ≤ radius).
    int32_t window_radius;
    int32_t window_step;
    /// Bilateral window weights: spatial Gaussian σ (pixels) and grey-level scale (0…255 units)
    /// of exp(−|ΔI| / sigma_color); 0 turns either factor off.
    float sigma_spatial;
    float sigma_color;
    /// Reference windows whose weighted grey-level standard deviation is below this (0…255
    /// units) are untextured: no depth is estimated there.
    float min_texture;
    /// View selection: a view's cost below `good_cost` (decaying over iterations) counts as good,
    /// above `bad_cost` as bad (1 − NCC units, 0…2); a view is used for a pixel when more than
    /// `min_good` of its candidate costs are good and fewer than `max_bad` are bad.
    float good_cost;
    float bad_cost;
    int32_t min_good;
    int32_t max_bad;
    /// Geometric consistency: weight of the forward-backward reprojection error (per pixel of
    /// error, added to 1 − NCC) and the error at which it saturates, pixels. Used only for
    /// sources that carry a depth map.
    float geometric_weight;
    float geometric_max_error;
    /// Relative depth perturbation of the first refinement (halved each iteration) and the
    /// matching normal perturbation (radians, halved too).
    float depth_perturbation;
    float normal_perturbation;
    /// 1: refinement also tries random depths and normals (needed when starting from random
    /// hypotheses); 0: only perturbations of the current one (refining a good start).
    int32_t random_hypotheses;
    /// Seed of the per-pixel random hypotheses (results do not depend on the thread count).
    uint32_t seed;
    /// Worker threads inside the kernel (≥ 1).
    int32_t num_threads;
    /// 1: run the portable kernel even on a CPU with AVX2 and FMA (to test it).
    int32_t portable_kernel;
} rc_patch_match_options;

/// Estimates a depth and normal per pixel of the reference view by PatchMatch stereo with
/// bilateral weighted NCC, checkerboard propagation and per-pixel view selection against
/// `source_count` (1…32) source views; with source depth maps, a geometric-consistency term.
/// `mask` (optional, pixel_count bytes): only non-zero pixels are estimated. `initial_depth`
/// and `initial_normal` (optional, together): a starting estimate (depth 0 = start at random).
/// Outputs, pixel_count entries each (normals × 3): depth in metres (0 = none), unit normal in
/// the reference camera frame pointing towards the camera (0 where no depth), and cost
/// (aggregated 1 − NCC plus the geometric term; 2 where no depth).
int32_t rc_patch_match(const rc_stereo_view* reference, const rc_stereo_view* sources, int32_t source_count,
                       const uint8_t* mask, const float* initial_depth, const float* initial_normal,
                       const rc_patch_match_options* options, float* depth, float* normal, float* cost,
                       rc_error* error);

// MARK: Mesh simplification (meshoptimizer)

/// Simplifies a triangle mesh to at most `target_triangles` triangles. First quadric-error edge
/// collapses that keep the topology (with `lock_border` = 1, vertices on open boundaries stay);
/// when those stop short of the target (topology constraints, or `target_error` reached), a
/// topology-free vertex-clustering pass finishes the job, so the cap always holds.
/// `target_error` is relative to the mesh extent (0.01 = 1 %). Writes the kept triangles into
/// `triangles_out` (capacity triangle_count × 3 indices into the input vertices), their count into
/// `out_triangle_count` and the relative error reached into `out_error` (either may be null).
int32_t rc_simplify_mesh(const float* positions, int32_t vertex_count, const uint32_t* triangles,
                         int32_t triangle_count, int32_t target_triangles, float target_error, int32_t lock_border,
                         uint32_t* triangles_out, int32_t* out_triangle_count, float* out_error, rc_error* error);

// MARK: Ray casting (Embree)

/// A triangle mesh ready for ray queries (a bounding-volume hierarchy). Immutable once built, so
/// several threads may query it at once.
typedef struct rc_ray_scene rc_ray_scene;

/// Builds the ray scene of `triangle_count` triangles over `vertex_count` xyz positions.
int32_t rc_ray_scene_new(const float* positions, int32_t vertex_count, const uint32_t* triangles,
                         int32_t triangle_count, rc_ray_scene** out, rc_error* error);
void rc_ray_scene_free(rc_ray_scene* scene);

/// Closest hits of `count` rays (origins and directions, xyz each; directions need not be unit,
/// distances are in units of their length) within [t_near, t_far]. Per ray: the distance
/// (+infinity when nothing is hit), the triangle (−1) and the barycentric weights of its second
/// and third corners (`hit_uv`, 2 per ray; the first corner has 1 − u − v).
int32_t rc_ray_scene_intersect(const rc_ray_scene* scene, const float* origins, const float* directions,
                               int32_t count, float t_near, float t_far, float* hit_distance,
                               int32_t* hit_triangle, float* hit_uv, rc_error* error);

/// Whether each of `count` rays hits anything within [t_near, t_far] (1) or not (0).
int32_t rc_ray_scene_occluded(const rc_ray_scene* scene, const float* origins, const float* directions,
                              int32_t count, float t_near, float t_far, uint8_t* occluded, rc_error* error);

#ifdef __cplusplus
}
#endif

#endif
