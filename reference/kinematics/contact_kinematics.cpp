// Placeholder: the contact kinematics are being written.
namespace contactref::kinematics {}
