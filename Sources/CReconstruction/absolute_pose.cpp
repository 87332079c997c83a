// Camera pose from 2D–3D correspondences: RANSAC with a minimal solver, then LM refinement.
#include <opencv2/calib3d.hpp>
#include <vector>

#include "guarded.hpp"

namespace {

struct PoseCandidate {
    cv::Mat rvec, tvec;
    std::vector<int> inliers;  // correspondences within the threshold under this pose
};

// Correspondences in front of the camera that project within `threshold` (image points are
// normalised coordinates times the focal length, so the projection is f·(x, y)/z).
std::vector<int> inliers_under(const std::vector<cv::Point3d>& object, const std::vector<cv::Point2d>& image,
                               double focal_length, const cv::Mat& rvec, const cv::Mat& tvec, double threshold) {
    cv::Matx33d R;
    cv::Rodrigues(rvec, R);
    const cv::Vec3d t(tvec.at<double>(0), tvec.at<double>(1), tvec.at<double>(2));
    std::vector<int> out;
    for (size_t i = 0; i < object.size(); ++i) {
        const cv::Vec3d p = R * cv::Vec3d(object[i].x, object[i].y, object[i].z) + t;
        if (p[2] <= 0) continue;
        const cv::Point2d d(focal_length * p[0] / p[2] - image[i].x, focal_length * p[1] / p[2] - image[i].y);
        if (d.dot(d) <= threshold * threshold) out.push_back(static_cast<int>(i));
    }
    return out;
}

// The correspondences at `indices`.
void select(const std::vector<cv::Point3d>& object, const std::vector<cv::Point2d>& image,
            const std::vector<int>& indices, std::vector<cv::Point3d>& object_out, std::vector<cv::Point2d>& image_out) {
    object_out.clear();
    image_out.clear();
    for (int i : indices) {
        object_out.push_back(object[i]);
        image_out.push_back(image[i]);
    }
}

// LM on the points a starting pose explains, then the inliers of the refined pose.
PoseCandidate refine(const std::vector<cv::Point3d>& object, const std::vector<cv::Point2d>& image,
                     const cv::Matx33d& K, cv::Mat rvec, cv::Mat tvec, double threshold) {
    PoseCandidate c{rvec, tvec, inliers_under(object, image, K(0, 0), rvec, tvec, threshold)};
    if (c.inliers.size() < 4) return c;
    std::vector<cv::Point3d> o;
    std::vector<cv::Point2d> m;
    select(object, image, c.inliers, o, m);
    cv::solvePnPRefineLM(o, m, K, cv::noArray(), c.rvec, c.tvec);
    c.inliers = inliers_under(object, image, K(0, 0), c.rvec, c.tvec, threshold);
    return c;
}

}  // namespace

extern "C" int32_t rc_estimate_absolute_pose(const double* points3d, const double* points2d, int32_t count,
                                             const rc_ransac_options* options, double focal_length,
                                             double* rotation, double* translation, uint8_t* inlier_mask,
                                             int32_t* inlier_count, rc_error* error) {
    return rc::guarded(error, [&] {
        rc::require(points3d && points2d && options && rotation && translation && inlier_count, "null argument");
        rc::require(focal_length > 0 && options->max_error > 0, "focal length and threshold must be positive");
        if (count < 4) throw rc::Failure{RC_ESTIMATION_FAILED, "too few 2D-3D correspondences"};
        std::vector<cv::Point3d> object(count);
        std::vector<cv::Point2d> image(count);
        for (int32_t i = 0; i < count; ++i) {
            object[i] = {points3d[3 * i], points3d[3 * i + 1], points3d[3 * i + 2]};
            image[i] = {points2d[2 * i] * focal_length, points2d[2 * i + 1] * focal_length};
        }
        const double threshold = options->max_error * focal_length;
        cv::Matx33d K(focal_length, 0, 0, 0, focal_length, 0, 0, 0, 1);
        cv::Mat rvec, tvec;
        std::vector<int> consensus;
        bool ok = cv::solvePnPRansac(object, image, K, cv::noArray(), rvec, tvec, false, options->max_iterations,
                                     static_cast<float>(threshold), options->confidence, consensus,
                                     cv::SOLVEPNP_AP3P);
        if (!ok || consensus.size() < 4) throw rc::Failure{RC_ESTIMATION_FAILED, "no pose with enough inliers"};
        // OpenCV refits RANSAC's best pose with EPnP on its consensus and returns that, with the
        // consensus as inliers. EPnP can fail there outright: on one castle-shaped scene it kept
        // 295 of 5215 inliers (Benchmarks/pose-loops.md). So SQPnP (globally optimal) refits the
        // same consensus too, each start is refined on the points it explains, and the pose that
        // explains more is kept, with its own inliers.
        PoseCandidate best = refine(object, image, K, rvec, tvec, threshold);
        std::vector<cv::Point3d> o;
        std::vector<cv::Point2d> m;
        select(object, image, consensus, o, m);
        cv::Mat rvec2, tvec2;
        // SQPnP asserts on a consensus it finds degenerate (its points' spread below its threshold,
        // as a far too long focal length makes it): the refit is a second opinion, so its failure
        // leaves the first pose standing instead of failing the image with OpenCV's assertion.
        bool refitted = false;
        try {
            refitted = cv::solvePnP(o, m, K, cv::noArray(), rvec2, tvec2, false, cv::SOLVEPNP_SQPNP);
        } catch (const cv::Exception&) {
            refitted = false;
        }
        if (refitted) {
            PoseCandidate other = refine(object, image, K, rvec2, tvec2, threshold);
            if (other.inliers.size() > best.inliers.size()) best = other;
        }
        if (best.inliers.size() < 4) throw rc::Failure{RC_ESTIMATION_FAILED, "no pose with enough inliers"};
        cv::Mat R;
        cv::Rodrigues(best.rvec, R);
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 3; ++c) rotation[3 * r + c] = R.at<double>(r, c);
            translation[r] = best.tvec.at<double>(r);
        }
        if (inlier_mask) {
            std::fill(inlier_mask, inlier_mask + count, 0);
            for (int i : best.inliers) inlier_mask[i] = 1;
        }
        *inlier_count = static_cast<int32_t>(best.inliers.size());
    });
}
