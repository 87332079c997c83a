// Camera pose from 2D–3D correspondences: RANSAC with a minimal solver, then LM refinement.
#include <opencv2/calib3d.hpp>
#include <vector>

#include "guarded.hpp"

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
        cv::Matx33d K(focal_length, 0, 0, 0, focal_length, 0, 0, 0, 1);
        cv::Mat rvec, tvec;
        std::vector<int> inliers;
        bool ok = cv::solvePnPRansac(object, image, K, cv::noArray(), rvec, tvec, false, options->max_iterations,
                                     static_cast<float>(options->max_error * focal_length), options->confidence,
                                     inliers, cv::SOLVEPNP_AP3P);
        if (!ok || inliers.size() < 4) throw rc::Failure{RC_ESTIMATION_FAILED, "no pose with enough inliers"};
        std::vector<cv::Point3d> inlier_object;
        std::vector<cv::Point2d> inlier_image;
        for (int i : inliers) {
            inlier_object.push_back(object[i]);
            inlier_image.push_back(image[i]);
        }
        cv::solvePnPRefineLM(inlier_object, inlier_image, K, cv::noArray(), rvec, tvec);
        cv::Mat R;
        cv::Rodrigues(rvec, R);
        for (int r = 0; r < 3; ++r) {
            for (int c = 0; c < 3; ++c) rotation[3 * r + c] = R.at<double>(r, c);
            translation[r] = tvec.at<double>(r);
        }
        if (inlier_mask) {
            std::fill(inlier_mask, inlier_mask + count, 0);
            for (int i : inliers) inlier_mask[i] = 1;
        }
        *inlier_count = static_cast<int32_t>(inliers.size());
    });
}
