# SPDX-License-Identifier: GPL-3.0-or-later
"""The method's parameters as Processing parameters, and the METHOD string (-a) that shepard-grid and shepard-cv take.

The names are gdal_grid's where gdal_grid has the option (power, smoothing, radius, radius1, radius2, angle,
max_points, min_points, max_points_per_quadrant, min_points_per_quadrant, nodata); summation and tolerance are
Shepard's far field (issue 15)."""

from dataclasses import dataclass

from qgis.core import QgsProcessingParameterDefinition, QgsProcessingParameterEnum, QgsProcessingParameterNumber
from qgis.PyQt.QtCore import QCoreApplication

from .algorithm_base import parameter_is_set


def _tr(text):
    return QCoreApplication.translate("Shepard", text)


@dataclass(frozen=True)
class NumberOption:
    """One NAME=VALUE of the method string as a Processing number; default None makes it optional (left out)."""

    name: str
    key: str
    description: str
    help: str
    integer: bool = False
    default: float = None
    minimum: float = None
    maximum: float = None
    decimals: int = None
    advanced: bool = False


IDW_OPTIONS = (
    NumberOption("POWER", "power", "Power p", "The weight of a point is its distance to the power -p (default 2).",
                 default=2.0, minimum=0.0),
)

AIDW_OPTIONS = (
    NumberOption("K", "k", "Nearest points for the density (k)",
                 "AIDW measures the point density around each cell by r_obs, the mean distance to its k nearest "
                 "points (default 15). The neighbourhood options below restrict only the weighting, not this.",
                 integer=True, default=15, minimum=1),
    NumberOption("ALPHA1", None, "Power α1 (densest)", "The power used where the points are densest (default 1.5).",
                 default=1.5, minimum=0.0),
    NumberOption("ALPHA2", None, "Power α2", "The second of AIDW's five power levels (default 2).",
                 default=2.0, minimum=0.0),
    NumberOption("ALPHA3", None, "Power α3", "The middle power level, for an even spread of points (default 2.5).",
                 default=2.5, minimum=0.0),
    NumberOption("ALPHA4", None, "Power α4", "The fourth of AIDW's five power levels (default 3).",
                 default=3.0, minimum=0.0),
    NumberOption("ALPHA5", None, "Power α5 (sparsest)", "The power used where the points are sparsest (default 3.5).",
                 default=3.5, minimum=0.0),
    NumberOption("RMIN", "rmin", "Rmin",
                 "Below this density ratio R = r_obs / r_exp a cell takes α1 (default 0).",
                 default=0.0, minimum=0.0, advanced=True),
    NumberOption("RMAX", "rmax", "Rmax",
                 "Above this density ratio R = r_obs / r_exp a cell takes α5 (default 2).",
                 default=2.0, minimum=0.0, advanced=True),
    NumberOption("AREA_VALUE", "area", "Study area instead [squared map units]",
                 "AIDW's study area A, which gives the expected distance r_exp = 1 / (2 sqrt(n / A)); when set, it "
                 "replaces the area chosen under Study area.", minimum=0.0, advanced=True),
)

NEIGHBOURHOOD_OPTIONS = (
    NumberOption("RADIUS", "radius", "Search radius [map units]",
                 "Only points within this distance of a cell weigh in (distance <= radius, as gdal_grid). Not set: "
                 "no limit. Give either this or the ellipse (radius 1, radius 2, angle).", minimum=0.0),
    NumberOption("MAX_POINTS", "max_points", "Maximum points",
                 "Weigh only the N nearest points (within the radius or ellipse, if one is set). Not set: all points.",
                 integer=True, minimum=1),
    NumberOption("MIN_POINTS", "min_points", "Minimum points",
                 "A cell with fewer points than this within the radius or ellipse gets nodata. Not set: 0.",
                 integer=True, minimum=0),
    NumberOption("SMOOTHING", "smoothing", "Smoothing S",
                 "Weights are (d² + S²)^(-p/2), as gdal_grid's smoothing: the surface no longer passes exactly "
                 "through the points (default 0).", default=0.0, minimum=0.0, advanced=True),
    NumberOption("RADIUS1", "radius1", "Ellipse: radius 1 [map units]",
                 "The search ellipse's first semi-axis, along the angle's direction (with radius 2; instead of the "
                 "search radius).", minimum=0.0, advanced=True),
    NumberOption("RADIUS2", "radius2", "Ellipse: radius 2 [map units]",
                 "The search ellipse's second semi-axis, across the angle's direction (with radius 1).",
                 minimum=0.0, advanced=True),
    NumberOption("ANGLE", "angle", "Ellipse: angle [degrees]",
                 "The ellipse turns radius 1's axis counter-clockwise from east by this angle, as gdal_grid's angle "
                 "(needs radius 1 and radius 2).", advanced=True),
    NumberOption("MAX_POINTS_PER_QUADRANT", "max_points_per_quadrant", "Maximum points per quadrant",
                 "Weigh at most this many nearest points in each quadrant around the cell (as gdal_grid 3.6).",
                 integer=True, minimum=1, advanced=True),
    NumberOption("MIN_POINTS_PER_QUADRANT", "min_points_per_quadrant", "Minimum points per quadrant",
                 "A cell with fewer points than this in any quadrant around it gets nodata (as gdal_grid 3.6).",
                 integer=True, minimum=0, advanced=True),
    NumberOption("NODATA", "nodata", "Nodata value",
                 "The value written where a cell has no data. Not set: -9999, or the data type's lowest value when "
                 "the field's values reach -9999.", advanced=True),
)

AREA_NAME = "AREA"
AREA_CHOICES = (("bbox", "Bounding box of the points"), ("hull", "Convex hull of the points"))
SUMMATION_NAME = "SUMMATION"
SUMMATION_CHOICES = (("auto", "Automatic (the far field where it costs less)"), ("exact", "Exact (every pair)"),
                     ("farfield", "Far field (within the tolerance)"))
SUMMATION_OPTIONS = (
    NumberOption("TOLERANCE", "tolerance", "Far-field tolerance",
                 "The far field's promise: every cell is within this share of the field's value range (largest "
                 "value − smallest) of the exact weighted mean, from 1e-11 to 0.1 (default 1e-6). No effect with "
                 "Exact, or where the far field does not apply.",
                 default=1e-6, minimum=1e-11, maximum=0.1, decimals=11, advanced=True),
)
REXP_NAME = "REXP"
REXP_CHOICES = (("nearest", "Expected distance to the nearest point (the papers' r_exp)"),
                ("knn", "Expected mean distance to the k nearest"))


def _advanced(parameter, advanced=True):
    if advanced:
        parameter.setFlags(parameter.flags() | QgsProcessingParameterDefinition.FlagAdvanced)
    return parameter


def _number_parameter(option):
    kind = QgsProcessingParameterNumber.Integer if option.integer else QgsProcessingParameterNumber.Double
    default = None if option.default is None else (int(option.default) if option.integer else option.default)
    parameter = QgsProcessingParameterNumber(option.name, _tr(option.description), kind, default,
                                             option.default is None)
    if option.minimum is not None:
        parameter.setMinimum(option.minimum)
    if option.maximum is not None:
        parameter.setMaximum(option.maximum)
    if option.decimals is not None:
        parameter.setMetadata({"widget_wrapper": {"decimals": option.decimals}})
    parameter.setHelp(_tr(option.help))
    return _advanced(parameter, option.advanced)


def _enum_parameter(name, description, choices, help_text):
    parameter = QgsProcessingParameterEnum(name, _tr(description), [_tr(label) for _, label in choices],
                                           defaultValue=0)
    parameter.setHelp(_tr(help_text))
    return _advanced(parameter)


def add_idw_parameters(algorithm):
    for option in IDW_OPTIONS:
        algorithm.addParameter(_number_parameter(option))


def add_aidw_parameters(algorithm):
    area_value = next(option for option in AIDW_OPTIONS if option.name == "AREA_VALUE")
    for option in AIDW_OPTIONS:
        if option is not area_value:
            algorithm.addParameter(_number_parameter(option))
    algorithm.addParameter(_enum_parameter(
        AREA_NAME, "Study area", AREA_CHOICES,
        "The area A behind AIDW's expected distance r_exp: the points' bounding box (default) or their convex hull."))
    algorithm.addParameter(_number_parameter(area_value))
    algorithm.addParameter(_enum_parameter(
        REXP_NAME, "r_obs is compared with", REXP_CHOICES,
        "nearest (default): the expected distance to the nearest point, as in the papers; knn: the expected mean "
        "distance to the k nearest, which r_obs averages, so that R is about 1 on evenly spread points."))


def add_neighbourhood_parameters(algorithm, nodata=True):
    """nodata=False leaves out the Nodata value: cross-validation writes no raster (shepard-cv refuses nodata=)."""
    for option in NEIGHBOURHOOD_OPTIONS:
        if nodata or option.key != "nodata":
            algorithm.addParameter(_number_parameter(option))


def add_summation_parameters(algorithm):
    algorithm.addParameter(_enum_parameter(
        SUMMATION_NAME, "Summation", SUMMATION_CHOICES,
        "How the sums over every point are made. Exact weighs every pair of point and cell. Far field sums far points "
        "from a tree, keeping every cell within the tolerance below of the exact value, and is much faster on large "
        "layers. Automatic (default) takes the far field where it is expected to cost less. The far field applies "
        "with all points (no radius, maximum points or quadrant limits), no smoothing and powers up to 64, on the "
        "CPU; elsewhere every pair is weighed."))
    for option in SUMMATION_OPTIONS:
        algorithm.addParameter(_number_parameter(option))


def summation_items(algorithm, parameters, context):
    """summation=... and tolerance=... of the method string, each where it differs from the default."""
    summation = SUMMATION_CHOICES[algorithm.parameterAsEnum(parameters, SUMMATION_NAME, context)][0]
    items = [] if summation == SUMMATION_CHOICES[0][0] else ["summation=" + summation]
    return items + _items(algorithm, SUMMATION_OPTIONS, parameters, context)


def _format_number(value):
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _option_value(algorithm, option, parameters, context):
    if option.integer:
        return algorithm.parameterAsInt(parameters, option.name, context)
    return algorithm.parameterAsDouble(parameters, option.name, context)


def _items(algorithm, options, parameters, context):
    """NAME=VALUE for each option that is set and differs from the command line's default, which it leaves out."""
    items = []
    for option in options:
        if option.key is None or (option.default is None and not parameter_is_set(parameters, option.name)):
            continue
        value = _option_value(algorithm, option, parameters, context)
        if option.default is None or value != option.default:
            items.append("{}={}".format(option.key, _format_number(value)))
    return items


def idw_method(algorithm, parameters, context):
    """The -a METHOD of IDW from the algorithm's parameters."""
    items = ["idw"] + _items(algorithm, IDW_OPTIONS + NEIGHBOURHOOD_OPTIONS, parameters, context)
    return ":".join(items)


def aidw_method(algorithm, parameters, context):
    """The -a METHOD of AIDW from the algorithm's parameters."""
    items = ["aidw"] + _items(algorithm, AIDW_OPTIONS, parameters, context)
    alpha_options = [option for option in AIDW_OPTIONS if option.name.startswith("ALPHA")]
    alphas = [_option_value(algorithm, option, parameters, context) for option in alpha_options]
    if alphas != [option.default for option in alpha_options]:
        items.append("alpha=" + ",".join(_format_number(alpha) for alpha in alphas))
    area = AREA_CHOICES[algorithm.parameterAsEnum(parameters, AREA_NAME, context)][0]
    if area != AREA_CHOICES[0][0] and not parameter_is_set(parameters, "AREA_VALUE"):
        items.append("area=" + area)
    rexp = REXP_CHOICES[algorithm.parameterAsEnum(parameters, REXP_NAME, context)][0]
    if rexp != REXP_CHOICES[0][0]:
        items.append("rexp=" + rexp)
    items += _items(algorithm, NEIGHBOURHOOD_OPTIONS, parameters, context)
    return ":".join(items)
